#!/usr/bin/env python3
"""Food-variety figures (issue 31) of any `regimen` binary over a sample of the nutrition grid.

The grid's properties are asserted by NutritionPropertyTests (`swift test` a sample,
scripts/nutrition-grid.sh the full grid). This script measures the same things from the outside,
through `regimen nutrition --format json`, so an older binary that has no food groups (main before
issue 31) can be measured for a before -> after comparison. Food groups come from THIS checkout's
catalogs/ingredients.yaml, by ingredient id.

    scripts/food-variety-figures.py BINARY [--root DIR] [--stride N]

BINARY runs in DIR (default: this checkout), so it loads DIR's rules/ and catalogs/. Prints, per
diet: meals with options; meals whose protein options span >= 2 food groups; days whose meals all
offer the same protein list; and for omnivores the fewest and the mean distinct protein foods in a
day and the share of protein options that are protein powders.
"""
import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent.parent
# The dimensions of Tests/RegimenCoachingTests/NutritionGrid.swift.
EXCLUSION_SETS = [[]] + [[x] for x in ["vegetarian", "vegan", "pescatarian", "dairy", "egg", "fish", "shellfish", "soy", "gluten",
                                       "nuts", "tree_nuts", "peanuts", "sesame"]] + [["vegan", "gluten"], ["vegan", "soy"],
                                                                                    ["vegetarian", "nuts"], ["dairy", "egg"]]
WEIGHTS = list(range(40, 161, 5))
HEIGHTS = [152, 160, 168, 175, 183, 190, 198]
AGES = ["<18", "18-24", "25-34", "35-44", "45-54", "55-60", ">60"]
GOALS = ["fat_loss", "lean_mass", "recomp", "strength"]
EXPERIENCES = ["novice", "intermediate", "advanced"]
BUDGETS = ["low", "medium", "high"]
MEALS = [2, 3, 4, 5, 6]


def points():
    for sex in ["male", "female"]:
        for w, weight in enumerate(WEIGHTS):
            height = HEIGHTS[(w + (3 if sex == "female" else 0)) % len(HEIGHTS)]
            age = AGES[w % len(AGES)]
            for goal in GOALS:
                for experience in EXPERIENCES:
                    for budget in BUDGETS:
                        for exclusions in EXCLUSION_SETS:
                            for meals in MEALS:
                                yield exclusions, (f"sex: {sex}\nschedule_days: {1 + w % 6}\nage_range: \"{age}\"\nweight_kg: {weight}\n"
                                                   f"height_cm: {height}\ngoal: {goal}\nexperience: {experience}\nbudget_tier: {budget}\n"
                                                   f"meals_per_day: {meals}\nexclusions: [{', '.join(exclusions)}]\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--root", default=str(HERE))
    parser.add_argument("--stride", type=int, default=139)
    args = parser.parse_args()
    catalog = yaml.safe_load((HERE / "catalogs/ingredients.yaml").read_text())["ingredients"]
    group = {entry["id"]: entry["food_group"] for entry in catalog}
    stats = defaultdict(lambda: defaultdict(int))
    omnivore_days = []
    powders = [0, 0]
    with tempfile.TemporaryDirectory() as scratch:
        profile_path = Path(scratch) / "profile.yaml"
        for index, (exclusions, text) in enumerate(points()):
            if index % args.stride:
                continue
            profile_path.write_text(text)
            run = subprocess.run([args.binary, "nutrition", "--format", "json", str(profile_path)], cwd=args.root,
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"exit {run.returncode}: {text!r}: {run.stderr.strip()[:200]}", file=sys.stderr)
                continue
            meals = json.loads(run.stdout)["ingredients"]["meals"]
            diet = "+".join(exclusions) or "none"
            s = stats[diet]
            s["days"] += 1
            lists = []
            for meal in meals:
                s["meals"] += 1
                ids = [o["ingredientId"] for o in meal.get("protein_opts", [])]
                if not ids:
                    continue
                s["served"] += 1
                lists.append(tuple(ids))
                if len({group.get(i, "?") for i in ids}) >= 2:
                    s["two_groups"] += 1
                if not exclusions:
                    powders[0] += sum(group.get(i) == "protein_powders" for i in ids)
                    powders[1] += len(ids)
            if len(lists) == len(meals) and len(lists) > 1 and len(set(lists)) == 1:
                s["same_list_every_meal"] += 1
            if not exclusions and len(lists) == len(meals):
                omnivore_days.append(len({i for ids in lists for i in ids}))
    print(f"{'diet':<18} {'days':>5} {'meals':>6} {'served':>7} {'>=2 groups':>11} {'same list all day':>18}")
    for diet in sorted(stats):
        s = stats[diet]
        print(f"{diet:<18} {s['days']:>5} {s['meals']:>6} {s['served']:>7} {s['two_groups']:>11} {s['same_list_every_meal']:>18}")
    total = {k: sum(s[k] for s in stats.values()) for k in ["days", "meals", "served", "two_groups", "same_list_every_meal"]}
    print(f"{'all':<18} {total['days']:>5} {total['meals']:>6} {total['served']:>7} {total['two_groups']:>11} {total['same_list_every_meal']:>18}")
    if omnivore_days:
        print(f"omnivore days: {len(omnivore_days)}; distinct protein foods per day: fewest {min(omnivore_days)}, "
              f"mean {sum(omnivore_days) / len(omnivore_days):.1f}; days with >= 6: {sum(d >= 6 for d in omnivore_days)}")
    if powders[1]:
        print(f"omnivore protein options that are protein powders: {powders[0]} of {powders[1]} ({100 * powders[0] / powders[1]:.0f}%)")


if __name__ == "__main__":
    main()
