#!/usr/bin/env python3
"""Checks the JSON Schemas in schemas/ against the shipped files and against the loader.

1. Every YAML file under rules/ and catalogs/ (and every example that names a schema) starts
   with `# yaml-language-server: $schema=<relative path>`, and validates against that schema
   with a real JSON Schema (2020-12) validator (the `jsonschema` package from PyPI).
2. A corpus of mutated files, generated from the shipped rule and catalog files with a fixed
   seed, goes through both the schema and the loader (`regimen check --format json`). The
   mutants are loaded together, so checks across files (a muscle the volume rules track, an
   equipment tag, an exercise id) do not run there: a mutant on which the two disagree is judged
   again in a copy of the shipped rules with only its file replaced.
3. Vocabulary mutants (a misspelt muscle, equipment tag, exercise id, experience level, food tag,
   food group, a strength pattern's muscle,
   ingredient id, supplement goal, a set range written in words or backwards, an id in a fact's
   list), each in a copy of the shipped rules: the schemas list
   the words the shipped catalogs define (`regimen schema` writes them), so both must reject
   them; a backwards range (`sets: 18-14`) and an id inside an expression are the loader's alone
   and both must accept their shape. A mutant
   is "shape-rejected" by the loader when the loader reports one of the shape diagnostics below
   in it (a missing or unknown key, a wrong type, a value out of range or not among the allowed
   words); the schema and the loader agree on a mutant when both reject it or both accept it.
   Expressions, references to other files and rules between values are the loader's alone, so
   a mutant the loader rejects only for those counts as accepted by its shape (the loader
   reports them under ids of their own: see LOADER_ONLY_IDS).

The run prints the agreement (agreeing mutants / all mutants) per kind and overall, and fails
when a shipped file does not validate or the agreement is below --minimum-agreement.

Usage: scripts/schema-check.py [--regimen .build/debug/regimen] [--mutants-per-file 30]
                               [--seed 20] [--minimum-agreement 1.0] [--show 10]
"""

import argparse
import copy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

import yaml
from jsonschema import Draft202012Validator

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)\s*$")
SHAPE_IDS = {
    "rules.missing-key", "rules.unknown-key", "rules.wrong-type", "rules.out-of-range", "rules.unknown-value",
    "rules.unknown-kind", "rules.unsupported-version", "rules.range",
    # A set, rep or prescription field not written in its form (`14 to 18`): the schema's pattern.
    "rules.notation-form",
}
# The security readers decode with the same mapping decoder (so the `rules.*` shape ids above),
# and have ids of their own for what they check in a value themselves: `rules.*` for policies
# (rules_version, service, a match block's path, an allow entry's methods, a function's signature
# and `let`), `tests.*` for test files. Not counted: `tests.duplicate-name` (a rule between
# values), `tests.value` (a tagged value inside a document or a write), a path's number of
# segments (see loader_only below), and what the policy compiler reports about expressions.
SHAPE_IDS_BY_KIND = {
    kind: SHAPE_IDS | {
        "tests.rules", "tests.time", "tests.name", "tests.expect",
        "tests.operation", "tests.data", "tests.document", "tests.upload", "tests.query", "tests.path",
    }
    for kind in ("security_tests", "security-tests")
} | {
    kind: SHAPE_IDS | {
        "rules.version", "rules.service", "rules.match", "rules.allow", "rules.function",
    }
    for kind in ("security_rules", "security-rules")
}


# What the loader checks that a JSON Schema cannot state, each with an id of its own (so not a
# shape id above), and the schema says so in the field's description:
LOADER_ONLY_IDS = {
    # A value that must be among other values of the same file (an activity's `usual` level among
    # its `rows`): JSON Schema cannot refer to a sibling's keys.
    "rules.unknown-reference": "a value must name another entry of the file",
    # What an expression computes (a readiness `score` must give a number, a plan test's
    # `assert` true or false): the schema sees a scalar; its type comes from compiling it.
    "rules.expression-type": "what an expression computes",
    # Actions that are all null or false change nothing: keys are present, their values say nothing.
    "rules.no-effect": "a rule whose actions are all null or false",
    # A range in its written form that runs backwards (`sets: 18-14`): a pattern cannot compare
    # the two numbers.
    "rules.bad-notation": "a range that runs backwards, or a notation the schema does not describe",
}


def loader_only(diagnostic):
    """A rule of LOADER_ONLY_IDS, or a path's number of segments: whether a path names a document
    or a collection depends on whether the policy a test file names is for Firestore or Storage,
    which the schema cannot know."""
    if diagnostic["id"] in LOADER_ONLY_IDS:
        return True
    return diagnostic["id"] == "tests.path" and "number of segments" in diagnostic.get("message", "")

# Kinds whose files name other files by a relative path: the mutants are written elsewhere, so
# that key is made absolute, and it is not mutated (the file it names is the loader's alone).
REFERENCE_KEYS = {"security_tests": "rules", "security-tests": "rules"}


class CoreLoader(yaml.SafeLoader):
    """PyYAML reads YAML 1.1 (`yes` is true, `2024-05-01` a date, `1:30` an integer); Regimen reads
    plain scalars by the YAML 1.2 core schema. This loader resolves scalars the way Regimen does,
    so the validator sees the values the loader sees."""


CoreLoader.yaml_implicit_resolvers = {}
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:null", re.compile(r"^(?:~|null|Null|NULL|)$"), list("~nN") + [""])
CoreLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:int", re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"), list("-+0123456789"))
CoreLoader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    list("-+0123456789."))


def construct_int(loader, node):
    text = loader.construct_scalar(node)
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)


CoreLoader.add_constructor("tag:yaml.org,2002:int", construct_int)


def construct_local_tag(loader, suffix, node):
    """Regimen's own tags (`!expr`, `!delete` in security tests) keep the value they tag."""
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


CoreLoader.add_multi_constructor("!", construct_local_tag)


class CoreDumper(yaml.SafeDumper):
    """Writes YAML that CoreLoader (and Regimen) read back as the same values: a string is quoted
    only where Regimen would read it bare as another type, so a bare date-time stays bare (the
    security tests' reader types only bare date-times as timestamps)."""


CoreDumper.yaml_implicit_resolvers = CoreLoader.yaml_implicit_resolvers


def json_keys(node):
    """The value as JSON holds it: every mapping key a string (`1:` is the key "1"), as editors
    and the loader (which reads a key's text) see it."""
    if isinstance(node, dict):
        return {json_key(key): json_keys(value) for key, value in node.items()}
    if isinstance(node, list):
        return [json_keys(value) for value in node]
    return node


def json_key(key):
    if isinstance(key, str):
        return key
    return json.dumps(key)


def load_yaml(text):
    return json_keys(yaml.load(text, Loader=CoreLoader))


def shipped_files():
    """Every shipped YAML file, relative to the repository, sorted."""
    found = []
    for top in ("rules", "catalogs", "examples"):
        for folder, _, names in os.walk(os.path.join(ROOT, top)):
            for name in names:
                if name.endswith((".yaml", ".yml")):
                    found.append(os.path.relpath(os.path.join(folder, name), ROOT))
    return sorted(found)


def schema_path(relative):
    """The schema a file names on its first line, as a path relative to the repository, or None."""
    with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
        first = handle.readline()
    match = SCHEMA_LINE.match(first)
    if not match:
        return None
    return os.path.normpath(os.path.join(os.path.dirname(relative), match.group(1)))


def validator_for(path, cache):
    if path not in cache:
        with open(os.path.join(ROOT, path), encoding="utf-8") as handle:
            schema = json.load(handle)
        Draft202012Validator.check_schema(schema)
        cache[path] = Draft202012Validator(schema)
    return cache[path]


def check_shipped(validators):
    """Validates every shipped file against its schema; returns (files checked, problems)."""
    problems = []
    checked = []
    for relative in shipped_files():
        schema = schema_path(relative)
        if schema is None:
            if relative.startswith(("rules/", "catalogs/")):
                problems.append(f"{relative}: first line must be '# yaml-language-server: $schema=<path to its schema>'")
            continue
        if not os.path.exists(os.path.join(ROOT, schema)):
            problems.append(f"{relative}: names schema {schema}, which does not exist")
            continue
        with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
            document = load_yaml(handle.read())
        for error in validator_for(schema, validators).iter_errors(document):
            where = "/".join(str(part) for part in error.absolute_path) or "(top)"
            problems.append(f"{relative}: {where}: {error.message[:200]}")
        checked.append((relative, schema))
    return checked, problems


# --- mutation corpus ---------------------------------------------------------------------------

def places(node, path=()):
    """Every (path, value) in the document, depth first, in file order."""
    yield path, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from places(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from places(value, path + (index,))


def replace(document, path, value):
    if not path:
        return value
    parent = document
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return document


def mutate(document, rng, protected=()):
    """One shape mutation of a copy of `document`, and what it did; the values of the top keys
    `kind`, `version` and `protected` are left alone."""
    document = copy.deepcopy(document)
    kept = {("kind",), ("version",)} | {(key,) for key in protected}
    all_places = [(path, value) for path, value in places(document) if path[:1] not in kept]
    mappings = [(path, value) for path, value in all_places if isinstance(value, dict)]
    keyed = [(path, value) for path, value in mappings if value]
    scalars = [(path, value) for path, value in all_places if path and not isinstance(value, (dict, list))]
    numbers = [(path, value) for path, value in scalars if isinstance(value, (int, float)) and not isinstance(value, bool)]
    strings = [(path, value) for path, value in scalars if isinstance(value, str)]
    operations = []
    if keyed:
        operations += ["delete-key", "delete-key"]
    if mappings:
        operations += ["unknown-key"]
    if scalars:
        operations += ["wrong-type", "wrong-type"]
    if numbers:
        operations += ["out-of-range", "out-of-range"]
    if strings:
        operations += ["unknown-word", "unknown-word"]
    if all_places:
        operations += ["container-type"]
    operation = rng.choice(operations)
    if operation == "delete-key":
        path, mapping = rng.choice(keyed)
        key = rng.choice(list(mapping))
        del mapping[key]
        return document, f"{operation} {'.'.join(map(str, path + (key,)))}"
    if operation == "unknown-key":
        path, mapping = rng.choice(mappings)
        mapping["zz_mutant_key"] = rng.choice([1, "x", True])
        return document, f"{operation} at {'.'.join(map(str, path)) or '(top)'}"
    if operation == "wrong-type":
        path, value = rng.choice(scalars)
        candidates = [v for v in ([], {}, True, 7, 2.5, None, "mutant text") if type(v) is not type(value)]
        new = copy.deepcopy(rng.choice(candidates))
        return replace(document, path, new), f"{operation} {'.'.join(map(str, path))}: {value!r} -> {new!r}"
    if operation == "out-of-range":
        path, value = rng.choice(numbers)
        new = rng.choice([-1, -1000000, 1000000000, value * 1000 + 1000, -value - 1])
        if isinstance(value, float):
            new = float(new)
        return replace(document, path, new), f"{operation} {'.'.join(map(str, path))}: {value!r} -> {new!r}"
    if operation == "unknown-word":
        path, value = rng.choice(strings)
        return replace(document, path, "zz_mutant_word"), f"{operation} {'.'.join(map(str, path))}: {value!r}"
    path, value = rng.choice(all_places)
    new = {} if isinstance(value, list) else []
    return replace(document, path, new), f"{operation} {'.'.join(map(str, path))}"


def loader_verdicts(regimen, folder):
    """Per mutant file (relative to `folder`): the error ids the loader reports, but those the
    schema leaves to the loader whatever the kind."""
    rules = os.path.join(folder, "rules")
    catalogs = os.path.join(folder, "catalogs")
    run = subprocess.run([regimen, "check", "--rules", rules, "--catalogs", catalogs, "--format", "json"],
                         capture_output=True, text=True, cwd=folder)
    if run.returncode not in (0, 1):
        sys.exit(f"error: regimen check failed to run (exit {run.returncode}): {run.stderr[:2000]}")
    report = json.loads(run.stdout)
    verdicts = {}
    messages = {}
    for diagnostic in report["diagnostics"]:
        if diagnostic["severity"] != "error" or "file" not in diagnostic:
            continue
        relative = os.path.relpath(os.path.join(folder, diagnostic["file"]), folder)
        verdicts.setdefault(relative, set())
        if not loader_only(diagnostic):
            verdicts[relative].add(diagnostic["id"])
            messages.setdefault(relative, []).append((diagnostic["id"], diagnostic.get("message", "")))
    return verdicts, messages


def in_context(regimen, relative, document):
    """The loader's shape ids for `document` loaded in place of `relative` in a copy of the
    shipped rules and catalogs (so checks across files run), and its messages."""
    folder = tempfile.mkdtemp(prefix="regimen-schema-context-")
    try:
        for top in ("rules", "catalogs"):
            shutil.copytree(os.path.join(ROOT, top), os.path.join(folder, top))
        with open(os.path.join(folder, relative), "w", encoding="utf-8") as handle:
            json.dump(document, handle, ensure_ascii=False)
        verdicts, messages = loader_verdicts(regimen, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return verdicts.get(relative, set()), messages.get(relative, [])


def at(document, path):
    for part in path:
        document = document[part]
    return document


# (file, path to a value, new value, what it is, whether the schema and the loader must reject it)
VOCABULARY_MUTANTS = [
    ("catalogs/exercise-catalog.yaml", ("exercises", 0, "muscles", 0), "chests", "muscle 'chests'", True),
    ("catalogs/exercise-catalog.yaml", ("exercises", 0, "secondary_muscles", 0), "tricep", "muscle 'tricep'", True),
    ("catalogs/exercise-catalog.yaml", ("exercises", 0, "equipment", 0), "barbel", "equipment 'barbel'", True),
    ("catalogs/exercise-catalog.yaml", ("exercises", 0, "regressions", 0), "dumbbell_bench_pres", "a regression naming no exercise", True),
    ("rules/training-volume.yaml", ("default_experience",), "experiance", "experience 'experiance'", True),
    ("rules/training-volume.yaml", ("bands", "rows", 1, "sets"), "14 to 18", "sets: 14 to 18", True),
    ("rules/training-volume.yaml", ("bands", "rows", 1, "sets"), "18-14", "sets: 18-14 (the loader's alone)", False),
    ("rules/training-goals.yaml", ("modifiers", "rows", 0, "compound"), "4 sets of 6-10", "a prescription in words", True),
    ("rules/training-recovery.yaml", ("blocks", 0, "options", 0), "walkin", "a recovery option naming no exercise", True),
    ("rules/training-selection.yaml", ("injury_set_cuts", "knee", "muscles", 0), "quad", "injury cut muscle 'quad'", True),
    ("rules/training-selection.yaml", ("exercise_choice", "strength_patterns", "patterns", "squat"), "quad",
     "a strength pattern's muscle 'quad'", True),
    # Food and supplement vocabularies: ingredient ids and food tags wherever a diet, an ingredient
    # or a supplement names them, a supplement's goals and the items it is redundant with.
    ("rules/dietary-exclusions.yaml", ("exclusions", "vegan", "excludes", 0), "meats", "a diet's tag 'meats'", True),
    ("rules/dietary-exclusions.yaml", ("exclusions", "pescatarian", "ingredients"), ["chicken_brest"],
     "a diet naming ingredient 'chicken_brest'", True),
    ("rules/dietary-exclusions.yaml", ("tags", 0), "meats", "a tag list's 'meats' (the diets naming 'meat' then name no tag)", True),
    ("catalogs/ingredients.yaml", ("ingredients", 0, "contains", 0), "meats", "an ingredient's tag 'meats'", True),
    ("catalogs/ingredients.yaml", ("ingredients", 0, "food_group"), "poultri", "an ingredient's food group 'poultri'", True),
    ("catalogs/supplement-catalog.yaml", ("supplements", 0, "contains", 0), "diary", "a supplement's tag 'diary'", True),
    ("catalogs/supplement-catalog.yaml", ("supplements", 0, "goals", 0), "fat_los", "a supplement's goal 'fat_los'", True),
    ("rules/supplement-rules.yaml", ("advisor", "always_include_goals", 0), "general_helth", "always_include_goals 'general_helth'", True),
    # An id in a fact's list is inside an expression: check's alone (expr.unknown-value), and any
    # text to the schema.
    ("rules/supplement-rules.yaml", ("facts", "minor_allowed"), "['whey_protien', 'omega_3']",
     "an id of fact minor_allowed, 'whey_protien' (check's alone: an expression)", False),
]


def check_vocabulary_mutants(regimen, validators):
    """Each vocabulary mutant in a copy of the shipped rules: (results, disagreements)."""
    results, disagreements = [], []
    for relative, path, value, what, rejected in VOCABULARY_MUTANTS:
        schema = schema_path(relative)
        with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
            document = load_yaml(handle.read())
        try:
            # The parent must exist; the mutant may add its last key (a diet's `ingredients:`).
            at(document, path[:-1])[path[-1]] if not isinstance(value, list) else at(document, path[:-1])
        except (KeyError, IndexError, TypeError):
            disagreements.append(f"{relative} [{what}]: the shipped file has no {'.'.join(map(str, path))}")
            continue
        mutant = replace(copy.deepcopy(document), path, value)
        schema_rejects = any(True for _ in validator_for(schema, validators).iter_errors(mutant))
        kind = document.get("kind")
        ids, messages = in_context(regimen, relative, mutant)
        loader_rejects = bool(ids & SHAPE_IDS_BY_KIND.get(kind, SHAPE_IDS))
        results.append((what, schema_rejects, loader_rejects))
        if schema_rejects != loader_rejects or schema_rejects != rejected:
            disagreements.append(f"{relative} [{what}]: schema {'rejects' if schema_rejects else 'accepts'}, loader "
                                 f"{'rejects' if loader_rejects else 'accepts'} its shape (expected both to "
                                 f"{'reject' if rejected else 'accept'}); loader: {messages[:2]}")
    return results, disagreements


def check_mutants(regimen, checked, validators, per_file, seed, show):
    rng = random.Random(seed)
    folder = tempfile.mkdtemp(prefix="regimen-schema-mutants-")
    try:
        for top in ("rules", "catalogs"):
            os.makedirs(os.path.join(folder, top), exist_ok=True)
        corpus = []
        for relative, schema in checked:
            if not relative.startswith(("rules/", "catalogs/")):
                continue
            with open(os.path.join(ROOT, relative), encoding="utf-8") as handle:
                document = load_yaml(handle.read())
            kind = document.get("kind") if isinstance(document, dict) else None
            reference = REFERENCE_KEYS.get(kind)
            if reference and isinstance(document.get(reference), str):
                document[reference] = os.path.join(ROOT, os.path.dirname(relative), document[reference])
            top, name = relative.split("/", 1)
            stem = name[:-5].replace("/", "__")
            for index in range(per_file):
                mutant, what = mutate(document, rng, protected=(reference,) if reference else ())
                path = os.path.join(top, f"{stem}--{index:03d}.yaml")
                os.makedirs(os.path.join(folder, top), exist_ok=True)
                with open(os.path.join(folder, path), "w", encoding="utf-8") as handle:
                    if reference:
                        # YAML, not JSON: JSON quotes every string, and a quoted date-time is text.
                        yaml.dump(mutant, handle, Dumper=CoreDumper, allow_unicode=True, sort_keys=False, width=1 << 20)
                    else:
                        json.dump(mutant, handle, ensure_ascii=False)
                corpus.append((path, kind, schema, mutant, what, relative))
        verdicts, messages = loader_verdicts(regimen, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    by_kind = {}
    disagreements = []
    rejudged = 0
    for path, kind, schema, mutant, what, original in corpus:
        errors = list(validator_for(schema, validators).iter_errors(mutant))
        schema_rejects = bool(errors)
        loader_ids = verdicts.get(path, set()) & SHAPE_IDS_BY_KIND.get(kind, SHAPE_IDS)
        loader_rejects = bool(loader_ids)
        if schema_rejects != loader_rejects and kind not in REFERENCE_KEYS:
            # Judged again where checks across files run: the mutant in place of its own file.
            rejudged += 1
            ids, context_messages = in_context(regimen, original, mutant)
            loader_ids = ids & SHAPE_IDS_BY_KIND.get(kind, SHAPE_IDS)
            loader_rejects = bool(loader_ids)
            messages[path] = context_messages
        agree, total = by_kind.get(kind, (0, 0))
        by_kind[kind] = (agree + (schema_rejects == loader_rejects), total + 1)
        if schema_rejects != loader_rejects:
            side = ("schema rejects, loader accepts" if schema_rejects
                    else f"loader rejects ({', '.join(sorted(loader_ids))}: {next((m for i, m in messages.get(path, []) if i in loader_ids), '')[:160]}), schema accepts")
            detail = f"; schema: {errors[0].message[:120]}" if errors else ""
            disagreements.append(f"{path} [{what}]: {side}{detail}")
    print(f"mutants judged again in a copy of the shipped rules (checks across files): {rejudged}")
    return by_kind, disagreements


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--regimen", default=os.path.join(ROOT, ".build", "debug", "regimen"))
    parser.add_argument("--mutants-per-file", type=int, default=30)
    parser.add_argument("--seed", type=int, default=20)
    # Every shape rule the loaders check is in their described shape, and what a schema cannot
    # state has ids of its own (LOADER_ONLY_IDS): the schema and the loader agree on every mutant
    # (this seed, and seed 7 with 120 mutants per file), so any disagreement is a regression.
    parser.add_argument("--minimum-agreement", type=float, default=1.0)
    parser.add_argument("--show", type=int, default=10, help="disagreements to print")
    options = parser.parse_args()
    # The loader runs in each mutant's folder: a relative path to it is taken from here.
    options.regimen = os.path.abspath(options.regimen)

    validators = {}
    checked, problems = check_shipped(validators)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    print(f"shipped files: {len(checked)} validated against their schemas, {len(problems)} problem(s)")

    by_kind, disagreements = check_mutants(options.regimen, checked, validators, options.mutants_per_file, options.seed, options.show)
    agree = sum(a for a, _ in by_kind.values())
    total = sum(t for _, t in by_kind.values())
    for kind in sorted(by_kind, key=str):
        a, t = by_kind[kind]
        print(f"  {kind}: {a}/{t}")
    ratio = agree / total if total else 1.0
    print(f"mutants: {total} (seed {options.seed}), schema and loader agree on {agree} ({ratio:.1%})")
    vocabulary, vocabulary_disagreements = check_vocabulary_mutants(options.regimen, validators)
    for what, schema_rejects, loader_rejects in vocabulary:
        print(f"  vocabulary mutant {what}: schema {'rejects' if schema_rejects else 'accepts'}, loader {'rejects' if loader_rejects else 'accepts'} its shape")
    print(f"vocabulary mutants: {len(VOCABULARY_MUTANTS)}, as expected: {len(VOCABULARY_MUTANTS) - len(vocabulary_disagreements)}")
    disagreements = vocabulary_disagreements + disagreements
    for line in disagreements[:options.show]:
        print(f"  disagree: {line}")
    if len(disagreements) > options.show:
        print(f"  … and {len(disagreements) - options.show} more")
    if problems or ratio < options.minimum_agreement or vocabulary_disagreements:
        sys.exit(1)


if __name__ == "__main__":
    main()
