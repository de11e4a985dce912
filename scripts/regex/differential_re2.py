#!/usr/bin/env python3
"""Differential check of Regimen's regular expressions against RE2 itself (PyPI `google-re2`).

Generates random pattern/text pairs over every construct class of RE2's grammar (valid and
invalid syntax), asks RE2 whether the pattern compiles, whether it matches the whole text and
where its first match and groups are, then has Regimen answer the same questions (through the
test `RegexDifferentialTests`, which reads the cases from $REGIMEN_RE2_CASES and writes its
answers to $REGIMEN_RE2_ANSWERS) and prints every disagreement by construct class.

    pip install google-re2
    python3 scripts/regex/differential_re2.py --cases 100000 [--seed 1] [--show 20]
    python3 scripts/regex/differential_re2.py --cases 2000 --write-sample   # refresh the CI sample

Known, intended differences (Firestore's emulator runs RE2/J, and Regimen follows the
emulator) are counted apart, not as failures: see KNOWN below.
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "Tests", "RegimenLanguageTests", "Conformance", "re2_differential_sample.jsonl")

try:
    import re2
except ImportError:  # pragma: no cover
    print("google-re2 is not installed (pip install google-re2), skipped")
    sys.exit(0)

# Characters texts and literals are drawn from: ASCII, case-folding specials (Kelvin sign, long
# s, final sigma), Greek, Latin-1, a newline, a digit from another script and an emoji (a code
# point outside the BMP).
ALPHABET = ["a", "b", "c", "A", "B", "k", "s", "_", "1", "0", " ", "\n", "-", ".", "\u212a", "\u017f",
            "\u03b1", "\u0391", "\u03c2", "\u03a3", "\u00e9", "\u00c9", "\u0663", "\U0001F600", "\t", "x"]
LITERALS = ["a", "b", "c", "k", "s", "A", "1", "_", "\u03b1", "\u00e9", "\U0001F600", " ", "-", "x"]
ESCAPED = ["\\.", "\\-", "\\*", "\\\\", "\\n", "\\t", "\\x61", "\\x{3b1}", "\\x{1F600}", "\\101", "\\0", "\\_", "\\$", "\\["]
CLASSES = ["[abc]", "[^ab]", "[a-c]", "[^a-c\\n]", "[[:alpha:]]", "[[:^digit:]]", "[[:upper:]k]", "[\\d_]", "[^\\w]",
           "[a\\-z]", "[-a]", "[a-]", "[]a]", "[\\p{Greek}a]", "[^\\pL]", "[\\x{3b1}-\\x{3c9}]", "[.]", "[\\s]"]
PERL = ["\\d", "\\D", "\\s", "\\S", "\\w", "\\W"]
UNICODE = ["\\pL", "\\pN", "\\p{Lu}", "\\p{Ll}", "\\p{Greek}", "\\p{Latin}", "\\PL", "\\P{Greek}", "\\p{^Greek}", "\\p{Any}", "\\pZ"]
ASSERTIONS = ["^", "$", "\\A", "\\z", "\\b", "\\B"]
FLAGS = ["(?i)", "(?s)", "(?m)", "(?U)", "(?i-s)", "(?ms)"]
INVALID = ["(?=a)", "(?!a)", "(?<=a)", "(?<!a)", "\\1", "a**", "a++", "[z-a]", "(?P<n>a)(?P<n>b)", "a{1001}", "\\Z",
           "(", ")", "[", "\\", "(?#c)", "\\p{Foo}", "[[:foo:]]", "\\8", "(?i-)", "(?P=n)", "x{2}{3}", "*", "\\x{110000}",
           "[\\b]", "\\G", "(?x)a", "\\cA"]
REPEATS = ["*", "+", "?", "*?", "+?", "??", "{2}", "{1,3}", "{0,2}", "{2,}", "{0}", "{1,2}?", "{3,}?"]


def atom(rng, depth):
    roll = rng.random()
    if depth < 3 and roll < 0.22:
        inner = pattern(rng, depth + 1)
        kind = rng.choice(["(", "(?:", "(?P<g%d>" % rng.randrange(1000), "(?i:", "(?s:", "(?<n%d>" % rng.randrange(1000)])
        return kind + inner + ")"
    if roll < 0.45:
        return rng.choice(LITERALS)
    if roll < 0.52:
        return "."
    if roll < 0.60:
        return rng.choice(ESCAPED)
    if roll < 0.70:
        return rng.choice(CLASSES)
    if roll < 0.77:
        return rng.choice(PERL)
    if roll < 0.83:
        return rng.choice(UNICODE)
    if roll < 0.90:
        return rng.choice(ASSERTIONS)
    if roll < 0.95:
        return rng.choice(FLAGS)
    if roll < 0.97:
        return "\\Q" + "".join(rng.choice(["a", ".", "*", "b"]) for _ in range(rng.randrange(3))) + "\\E"
    return rng.choice(INVALID)


def pattern(rng, depth=0):
    branches = []
    for _ in range(1 if rng.random() < 0.75 else rng.randrange(2, 4)):
        items = []
        for _ in range(rng.randrange(0 if depth else 1, 5)):
            a = atom(rng, depth)
            if rng.random() < 0.3:
                a += rng.choice(REPEATS)
            items.append(a)
        branches.append("".join(items))
    return "|".join(branches)


def text_for(rng, pat):
    # Half the texts are built from the pattern's own literals, so that matches are common.
    pool = ALPHABET if rng.random() < 0.5 else [c for c in pat if c not in "()[]{}?*+|\\^$"] or ALPHABET
    return "".join(rng.choice(pool) for _ in range(rng.randrange(0, 9)))


def construct_classes(pat):
    classes = []
    checks = [("group", "("), ("class", "["), ("perl", "\\d"), ("perl", "\\w"), ("perl", "\\s"), ("unicode", "\\p"),
              ("unicode", "\\P"), ("anchor", "^"), ("anchor", "$"), ("anchor", "\\b"), ("anchor", "\\A"), ("anchor", "\\z"),
              ("flags", "(?i"), ("flags", "(?s"), ("flags", "(?m"), ("flags", "(?U"), ("repeat", "{"), ("repeat", "*"),
              ("repeat", "+"), ("repeat", "?"), ("alternation", "|"), ("escape", "\\x"), ("quote", "\\Q"), ("dot", ".")]
    for name, marker in checks:
        if marker in pat and name not in classes:
            classes.append(name)
    return classes or ["literal"]


def re2_answer(pat, text):
    try:
        compiled = re2.compile(pat)
    except Exception:
        return {"ok": False}
    full = compiled.fullmatch(text) is not None
    m = compiled.search(text)
    spans = None
    if m is not None:
        spans = [list(m.span(i)) for i in range(compiled.groups + 1)]
    return {"ok": True, "full": full, "spans": spans}


# Where Firestore's RE2/J and RE2 disagree, Regimen follows the emulator (confirmed in
# Tests/RegimenLanguageTests/Conformance/regex.yaml). A disagreement is "known" when the
# pattern uses one of these constructs.
KNOWN = {
    "\\C": "RE2 accepts \\C (any byte); RE2/J and Regimen reject it",
    "nested-repeat": "RE2 rejects nested counted repetitions whose product exceeds 1000; RE2/J and Regimen accept them",
    "fold-unicode-class": "under (?i) RE2 adds every case variant to a \\p class; RE2/J (the emulator) adds only its fold table",
    "duplicate-name": "RE2 accepts two groups of the same name; RE2/J and Regimen reject the pattern",
    "\\B-inside-utf8": "RE2 matches bytes, so \\B also holds inside a multi-byte character; RE2/J and Regimen match code points",
}


def known_difference(pat, ours, theirs, text=""):
    if "\\C" in pat:
        return "\\C"
    names = re.findall(r"\(\?P?<([^>]*)>", pat)
    if len(names) != len(set(names)) and theirs.get("ok") and not ours.get("ok"):
        return "duplicate-name"
    if "\\B" in pat and any(ord(c) > 127 for c in text):
        return "\\B-inside-utf8"
    if theirs.get("ok") is False and ours.get("ok") is True and pat.count("{") >= 2:
        return "nested-repeat"
    if ("(?i" in pat) and ("\\p" in pat or "\\P" in pat):
        return "fold-unicode-class"
    return None


def run_regimen(cases):
    with tempfile.TemporaryDirectory() as tmp:
        path_in = os.path.join(tmp, "cases.jsonl")
        path_out = os.path.join(tmp, "answers.jsonl")
        with open(path_in, "w", encoding="utf-8") as f:
            for c in cases:
                f.write(json.dumps({"p": c["p"], "s": c["s"]}, ensure_ascii=False) + "\n")
        env = dict(os.environ, REGIMEN_RE2_CASES=path_in, REGIMEN_RE2_ANSWERS=path_out)
        result = subprocess.run(["swift", "test", "--filter", "RegexDifferentialTests/answersCasesFromEnvironment"],
                                cwd=ROOT, env=env, capture_output=True, text=True)
        if not os.path.exists(path_out):
            print(result.stdout[-3000:], result.stderr[-3000:])
            sys.exit("Regimen wrote no answers")
        with open(path_out, encoding="utf-8") as f:
            return [json.loads(line) for line in f]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=20)
    parser.add_argument("--write-sample", action="store_true", help="write the cases and RE2's answers as the CI sample")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = []
    for _ in range(args.cases):
        pat = pattern(rng)
        text = text_for(rng, pat)
        case = {"p": pat, "s": text}
        case.update(re2_answer(pat, text))
        cases.append(case)
    if args.write_sample:
        with open(SAMPLE, "w", encoding="utf-8") as f:
            for c in cases:
                if all(known_difference(c["p"], {"ok": ok}, c, c["s"]) is None for ok in (True, False)):
                    f.write(json.dumps(c, ensure_ascii=False) + "\n")
        print(f"wrote {SAMPLE}")
        return
    answers = run_regimen(cases)
    agree = Counter()
    differ = Counter()
    known = Counter()
    shown = 0
    syntax_agree = 0
    for case, ours in zip(cases, answers):
        same_syntax = case["ok"] == ours["ok"]
        syntax_agree += same_syntax
        same = same_syntax and (not case["ok"] or (case["full"] == ours["full"] and case["spans"] == ours["spans"]))
        classes = construct_classes(case["p"])
        if same:
            for k in classes:
                agree[k] += 1
            continue
        reason = known_difference(case["p"], ours, case, case["s"])
        if reason:
            known[reason] += 1
            continue
        for k in classes:
            differ[k] += 1
        if shown < args.show:
            shown += 1
            print("DIFF", json.dumps(case, ensure_ascii=False), "regimen:", json.dumps(ours, ensure_ascii=False))
    total = len(cases)
    accepted = sum(1 for c in cases if c["ok"])
    unexplained = total - sum(known.values()) - sum(1 for c, o in zip(cases, answers) if c["ok"] == o["ok"] and (not c["ok"] or (c["full"] == o["full"] and c["spans"] == o["spans"])))
    print(f"{total} pairs ({accepted} patterns RE2 accepts, {total - accepted} it rejects); "
          f"syntax verdict agrees on {syntax_agree}; full agreement on {total - unexplained - sum(known.values())}; "
          f"known differences {sum(known.values())}; unexplained {unexplained}")
    for k, n in sorted(known.items()):
        print(f"  known {k}: {n} ({KNOWN[k]})")
    print("  agreement by construct class: " + ", ".join(f"{k} {agree[k]}" for k in sorted(agree)))
    if differ:
        print("  DISAGREEMENT by construct class: " + ", ".join(f"{k} {differ[k]}" for k in sorted(differ)))
    sys.exit(1 if unexplained else 0)


if __name__ == "__main__":
    main()
