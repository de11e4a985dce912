#!/usr/bin/env bash
# The test suite under a sanitizer, in a build folder of its own (not part of CI: each takes
# several minutes).
#   scripts/sanitize.sh address   the whole suite under AddressSanitizer
#   scripts/sanitize.sh thread    the concurrent parts under ThreadSanitizer: a compiled policy
#                                 and the loaded rules shared across tasks, the rule set read
#                                 from many tasks, and the service answering requests while its
#                                 rules reload (suites named Concurrent…, RuleSetLoaderTests,
#                                 ReloadUnderLoadTests)
set -euo pipefail
cd "$(dirname "$0")/.."
case ${1:-} in
    address)
        # Leak checking stays off: LeakSanitizer cannot follow Swift's tagged enum pointers and
        # reports the test process's long-lived globals. Leaks are checked per input by the
        # fuzz targets (scripts/fuzz.sh), after a warm-up.
        ASAN_OPTIONS=detect_leaks=0 swift test --sanitize=address --scratch-path .build-asan
        ;;
    thread)
        swift test --sanitize=thread --scratch-path .build-tsan --filter 'Concurrent|RuleSetLoaderTests|ReloadUnderLoadTests'
        ;;
    *)
        sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
        exit 2
        ;;
esac
