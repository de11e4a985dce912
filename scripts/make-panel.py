#!/usr/bin/env python3
"""Generates a panel of synthetic clients for `regimen impact`: one profile file per client.

    scripts/make-panel.py [--count N] [--seed S] [--out DIR]

The shipped panel is `scripts/make-panel.py` with its defaults (240 clients, seed 20261125,
examples/panel). The same count and seed always give the same files. Clients span sex, age,
height, weight, body fat, goal, experience, equipment, injuries, diets and allergies, budgets,
meals per day, days per week and the supplement advisor's inputs; each axis is drawn so that
every value of it appears in a panel of 200 or more (cycled first, then shuffled together).
A larger count (`--count 1000 --out /tmp/panel-1000`) measures impact at scale.
"""
import argparse
import os
import pathlib
import random

AGE_RANGES = ["<18", "18-24", "25-34", "35-44", "45-54", "55-60", ">60"]
AGE_SPAN = {"<18": (15, 17), "18-24": (18, 24), "25-34": (25, 34), "35-44": (35, 44),
            "45-54": (45, 54), "55-60": (55, 60), ">60": (61, 80)}
GOALS = ["fat_loss", "lean_mass", "recomp", "strength"]
EXPERIENCE = ["novice", "intermediate", "advanced"]
EQUIPMENT = ["full_gym", "dumbbells_only", "bands_only", "bodyweight_only"]
INJURIES = ["shoulder", "elbow", "wrist", "low_back", "hip", "knee", "ankle"]
DIETS = [[], [], [], ["vegetarian"], ["vegan"], ["pescatarian"], ["vegan", "gluten"],
         ["vegetarian", "nuts"], ["dairy"], ["dairy", "egg"], ["gluten"], ["peanuts"],
         ["tree_nuts"], ["soy"], ["shellfish"], ["fish"], ["sesame"]]
BUDGETS = ["low", "medium", "high"]
MEDICATIONS = [[], [], [], ["warfarin"], ["sertraline"], ["metformin"], ["lisinopril"], ["ibuprofen"]]


def cycled(values, count, rng):
    """`count` values in which every value appears (when count allows), in random order."""
    out = [values[i % len(values)] for i in range(count)]
    rng.shuffle(out)
    return out


def client(index, axes, rng):
    sex = axes["sex"][index]
    age_range = axes["age_range"][index]
    low, high = AGE_SPAN[age_range]
    height = rng.randint(152, 178) if sex == "female" else rng.randint(162, 196)
    bmi = rng.uniform(18.0, 38.0)
    weight = round(bmi * (height / 100) ** 2, 1)
    profile = {
        "sex": sex,
        "schedule_days": axes["days"][index],
        "age_range": age_range,
        "experience": axes["experience"][index],
        "equipment": axes["equipment"][index],
        "goal": axes["goal"][index],
        "budget_tier": axes["budget"][index],
        "meals_per_day": axes["meals"][index],
    }
    # Optional fields come and go, as they do in real sign-ups (the accuracy meter sees both).
    if rng.random() < 0.8:
        profile["age"] = rng.randint(low, high)
    if rng.random() < 0.9:
        profile["height_cm"] = height
        profile["weight_kg"] = weight
    if rng.random() < 0.5:
        base = 14 if sex == "male" else 22
        profile["bodyfat_pct"] = round(base + (bmi - 22) * 1.1 + rng.uniform(-4, 4), 1)
    if rng.random() < 0.5:
        profile["waist_cm"] = round(height * rng.uniform(0.40, 0.62), 1)
    injuries = axes["injuries"][index]
    if injuries:
        profile["injuries"] = injuries
    if axes["diet"][index]:
        profile["exclusions"] = axes["diet"][index]
    if sex == "female" and low >= 18 and high <= 44 and rng.random() < 0.08:
        profile["pregnant"] = True
    if low >= 35 and rng.random() < 0.25:
        profile["hypertension"] = True
    if axes["medications"][index]:
        profile["medications"] = axes["medications"][index]
    if rng.random() < 0.6:
        profile["daily_caffeine_mg"] = rng.choice([0, 80, 150, 250, 400, 600])
    return profile


def scalar(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, str) and (value[:1] in "<>"):
        return f'"{value}"'
    return str(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=240)
    parser.add_argument("--seed", type=int, default=20261125)
    parser.add_argument("--out", default="examples/panel")
    options = parser.parse_args()
    rng = random.Random(options.seed)
    n = options.count
    injury_sets = [[]] * 4 + [[i] for i in INJURIES] + [["knee", "low_back"], ["shoulder", "wrist"]]
    axes = {
        "sex": cycled(["female", "male"], n, rng),
        "age_range": cycled(AGE_RANGES, n, rng),
        "days": cycled([1, 2, 3, 3, 4, 4, 5, 6, 7], n, rng),
        "experience": cycled(EXPERIENCE, n, rng),
        "equipment": cycled(EQUIPMENT, n, rng),
        "goal": cycled(GOALS, n, rng),
        "budget": cycled(BUDGETS, n, rng),
        "meals": cycled([2, 3, 3, 4, 4, 5, 6], n, rng),
        "injuries": cycled(injury_sets, n, rng),
        "diet": cycled(DIETS, n, rng),
        "medications": cycled(MEDICATIONS, n, rng),
    }
    out = pathlib.Path(options.out)
    out.mkdir(parents=True, exist_ok=True)
    for stale in out.glob("client-*.yaml"):
        stale.unlink()
    width = max(3, len(str(n)))
    # Editors check each client against the profile schema (regimen schema --out schemas).
    schema = os.path.relpath(pathlib.Path(__file__).resolve().parent.parent / "schemas" / "profile.schema.json", out.resolve())
    for index in range(n):
        profile = client(index, axes, rng)
        lines = [f"# yaml-language-server: $schema={schema}"]
        lines += [f"# Synthetic client {index + 1} of {n} (scripts/make-panel.py --count {n} --seed {options.seed})."]
        lines += [f"{key}: {scalar(value)}" for key, value in profile.items()]
        (out / f"client-{index + 1:0{width}d}.yaml").write_text("\n".join(lines) + "\n")
    print(f"{n} clients written to {out}")


if __name__ == "__main__":
    main()
