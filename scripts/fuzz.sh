#!/usr/bin/env bash
# Coverage-guided fuzzing of Regimen's untrusted-input paths with libFuzzer (Linux).
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]   run one target
#   scripts/fuzz.sh build                                     build every target
#   scripts/fuzz.sh list                                      list the targets
#
# Targets (Fuzz/Sources): FuzzExpression, FuzzCost, FuzzPolicy, FuzzRuleSet, FuzzProfile, FuzzCheckIns,
# FuzzSecurityTests. Every module, the libraries under test included, is built with
# `-sanitize=fuzzer,address` into .build-fuzz (linked with lld: gold fails on these objects). The seed corpus comes from the shipped files
# (rules, catalogs, examples, conformance cases) and grows in .build-fuzz/corpus/TARGET; a
# crash, leak or timeout (> 1 s per input) stops the run with its input saved in
# .build-fuzz/findings/TARGET. Exit status: 0 clean, 1 a finding, 2 usage.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# FUZZ_SANITIZE=fuzzer builds without AddressSanitizer (into .build-fuzz-fuzzer): Swift's own
# bounds and overflow checks stay on, the counted-cost oracle is unchanged, and inputs run about
# three times faster, for campaigns whose length ASan's cost would otherwise forbid.
sanitize=${FUZZ_SANITIZE:-fuzzer,address}
case $sanitize in
    fuzzer,address) scratch="$root/.build-fuzz" ;;
    fuzzer) scratch="$root/.build-fuzz-fuzzer" ;;
    *) echo "FUZZ_SANITIZE must be fuzzer,address (the default) or fuzzer" >&2; exit 2 ;;
esac
targets=(FuzzExpression FuzzCost FuzzPolicy FuzzRuleSet FuzzProfile FuzzCheckIns FuzzSecurityTests)

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

# The fuzz targets are part of the main package only when REGIMEN_FUZZ=1 (Package.swift). With no
# product named, each target is built in turn: a plain `swift build` would also build the
# executable and the server with the fuzzer's flags.
build() {
    if [ $# -eq 0 ]; then
        for t in "${targets[@]}"; do build --product "$t"; done
        return
    fi
    REGIMEN_FUZZ=1 swift build -j 1 -c release --scratch-path "$scratch" \
        -Xswiftc -sanitize="$sanitize" -Xswiftc -parse-as-library -Xswiftc -use-ld=lld "$@"
}

# Copies the shipped files a target reads into its seed corpus (idempotent).
seed() {
    local target=$1 dir="$scratch/seeds/$1"
    rm -rf "$dir"; mkdir -p "$dir"
    case $target in
        FuzzExpression)
            # One file per conformance expression.
            python3 - "$dir" <<'PY'
import sys, pathlib, re
out = pathlib.Path(sys.argv[1]); n = 0
for f in sorted(pathlib.Path("Tests/RegimenLanguageTests/Conformance").glob("*.yaml")):
    for line in f.read_text().splitlines():
        m = re.match(r'\s*-?\s*expr:\s*(.*)$', line)
        if not m: continue
        text = m.group(1).strip()
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
            text = text[1:-1].replace('\\"', '"') if text[0] == '"' else text[1:-1].replace("''", "'")
        (out / f"c{n:05}").write_text(text); n += 1
PY
            ;;
        # Steering bytes only (the grammar is in the target): a few fixed seeds.
        FuzzCost) python3 -c 'import random, sys
for n in range(8):
    random.seed(n); open(f"{sys.argv[1]}/r{n}", "wb").write(bytes(random.randrange(256) for _ in range(64)))' "$dir" ;;
        FuzzPolicy) find rules/security -name '*.rules' -exec cp {} "$dir/" \; ;;
        FuzzRuleSet) find rules catalogs -name '*.yaml' ! -path '*/security/*' | while read -r f; do cp "$f" "$dir/$(echo "$f" | tr / _)"; done ;;
        FuzzProfile) find examples -maxdepth 1 \( -name '*.yaml' -o -name '*.json' \) | while read -r f; do cp "$f" "$dir/$(basename "$f")"; done ;;
        FuzzCheckIns)
            cp examples/checkins/*.yaml "$dir/"
            .build/debug/regimen plan examples/minimal.yaml --format json > "$dir/plan.json" 2>/dev/null || true
            ;;
        FuzzSecurityTests)
            # The target reads test files as if they sat in rules/security/: name each policy by
            # its folder so the seeds load their policies and run their cases.
            find rules/security -name '*.tests.yaml' | while read -r f; do
                folder=$(basename "$(dirname "$f")")
                sed -E "s|^rules: *([^/]+)$|rules: $folder/\1|" "$f" > "$dir/$(echo "$f" | tr / _)"
            done
            ;;
    esac
}

[ $# -ge 1 ] || usage
case $1 in
    list) printf '%s\n' "${targets[@]}"; exit 0 ;;
    build) shift; build "$@"; exit 0 ;;
esac
target=$1; seconds=${2:-60}; shift; [ $# -ge 1 ] && shift
printf '%s\n' "${targets[@]}" | grep -qx "$target" || { echo "unknown target '$target'" >&2; usage; }

build --product "$target" >&2
binary="$scratch/release/$target"
seed "$target"
corpus="$scratch/corpus/$target"; findings="$scratch/findings/$target"
mkdir -p "$corpus" "$findings"
dictionary="Fuzz/dictionaries/$target.dict"
dict_option=(); [ -f "$dictionary" ] && dict_option=(-dict="$dictionary")
# FuzzCost's oracle is counted work, not time; its inputs hold values of up to 20,000 elements,
# which ASan makes slow to build. Its timeout only catches a hang.
timeout=1; [ "$target" = FuzzCost ] && timeout=10
# FuzzCost's bytes are choices: an expression takes at most about 50 of them, so longer inputs only
# spend mutations on bytes nothing reads.
max_len=65536; [ "$target" = FuzzCost ] && max_len=256

# libFuzzer checks every input for leaks (-detect_leaks, on by default with ASan). LeakSanitizer's
# own check at exit is off: it sees the process-wide globals (loaded rules) as leaked, because it
# cannot follow Swift's tagged enum pointers. stdin is closed so that a policy or test file naming
# /dev/stdin cannot block a run.
REGIMEN_ROOT="$root" ASAN_OPTIONS="detect_leaks=1:leak_check_at_exit=0:allocator_may_return_null=1" \
    "$binary" "$corpus" "$scratch/seeds/$target" "${dict_option[@]}" \
    -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -max_len="$max_len" \
    -artifact_prefix="$findings/" -print_final_stats=1 "$@" < /dev/null
