#!/usr/bin/env bash
# Fuzz the store loaders, the predicate parser and the fixture loader with libFuzzer and
# AddressSanitizer, one target at a time.
#
#   scripts/fuzz.sh                      # all five targets, 1,000,000 executions each
#   scripts/fuzz.sh FuzzJSONStore        # one target (FuzzJSONStore, FuzzBinaryHeader, FuzzBinaryFrames,
#                                        # FuzzPredicateFormat, FuzzFixture)
#   FUZZ_RUNS=100000 scripts/fuzz.sh     # fewer executions (a smoke run)
#   FUZZ_MAX_TIME=600 scripts/fuzz.sh    # also stop each target after 600 seconds
#   FUZZ_BUILD=0 scripts/fuzz.sh         # reuse the fuzz build in .build-fuzz
#
# Each target is built in release with `--sanitize fuzzer --sanitize address -Xswiftc -DFUZZING`
# into .build-fuzz/ (ignored by git), under the shared build lock ($SWIFT_BUILD_LOCK, default
# /tmp/swift-build.lock; `none` when the caller already holds it, as .ci/run may) when `flock`
# exists. SwiftPM passes the two sanitizers to swiftc as two `-sanitize=` options, of which the
# Swift 6.3 driver keeps only the last, in no fixed order: the Swift code got either coverage or
# ASan, never both. So the script also passes
# `-Xswiftc -sanitize=fuzzer,address` (which comes last), and checks the library's object files
# for both kinds of instrumentation before fuzzing. It starts from the committed seeds in
# Tests/Fixtures/Corpus/<target>/ plus what earlier runs found in .build-fuzz/corpus/<target>/,
# and stops at the first crash. The script prints, per target, the executions, executions per
# second, new corpus units and peak memory, then whether it crashed.
#
# A crashing input (a trap, an ASan report, a timeout or an out-of-memory) is written to
# Tests/Fixtures/Crashes/<target>/, where the plain test suite (FuzzRegressionTests) replays it:
# the tests fail until the library is fixed, and keep the fix from regressing. To reproduce one
# under a debugger, use the ordinary build, whose fuzz products replay the files they are given:
#
#   swift run FuzzJSONStore Tests/Fixtures/Crashes/FuzzJSONStore/crash-<sha1>
#
# Exit status: 0 when no target crashed, 1 when one did, 2 on a usage or build error.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(FuzzJSONStore FuzzBinaryHeader FuzzBinaryFrames FuzzPredicateFormat FuzzFixture)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all_targets[@]}")
runs=${FUZZ_RUNS:-1000000}
max_time=${FUZZ_MAX_TIME:-0}
lock=${SWIFT_BUILD_LOCK:-/tmp/swift-build.lock}
scratch=.build-fuzz

locked() {
    if [[ $lock != none ]] && command -v flock >/dev/null; then flock "$lock" "$@"; else "$@"; fi
}

for target in "${targets[@]}"; do
    if [[ ! " ${all_targets[*]} " =~ " $target " ]]; then
        echo "error: unknown target '$target'; expected one of: ${all_targets[*]}" >&2
        exit 2
    fi
done

crashed=()
summary=()
for target in "${targets[@]}"; do
    if [[ ${FUZZ_BUILD:-1} != 0 ]]; then
        echo "== building $target"
        locked swift build -c release --sanitize fuzzer --sanitize address --product "$target" \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xswiftc -DFUZZING --scratch-path "$scratch" \
            || exit 2
    fi
    # One object file of the library (a glob, not `ls | head`: under pipefail a missing file ended
    # the script silently).
    objects=("$scratch"/*/release/ObjectGraph.build/CRC32C.swift.o)
    probe=${objects[0]}
    [[ -e $probe ]] || probe=""
    if ! command -v objdump >/dev/null || ! command -v nm >/dev/null; then
        echo "warning: objdump or nm is missing; cannot check that the library is instrumented" >&2
    elif [[ -z $probe ]] || ! objdump -h "$probe" | grep __sancov_cntrs >/dev/null \
        || ! nm -u "$probe" | grep __asan_ >/dev/null; then
        echo "error: the library is not instrumented for both coverage and ASan (checked ${probe:-nothing})" >&2
        exit 2
    fi
    corpus="$scratch/corpus/$target"
    crashes="Tests/Fixtures/Crashes/$target"
    mkdir -p "$corpus" "$crashes"
    options=(-runs="$runs" -max_total_time="$max_time" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
        -artifact_prefix="$crashes/")
    case $target in
        FuzzBinaryFrames) ;;
        FuzzPredicateFormat) options+=(-dict=Tests/Fixtures/Corpus/predicate-format.dict) ;;
        *) options+=(-dict=Tests/Fixtures/Corpus/json-store.dict) ;;
    esac
    log="$scratch/$target.log"
    echo "== fuzzing $target: $runs executions (log: $log)"
    status=0
    SWIFT_BACKTRACE=enable=no "$scratch/release/$target" "${options[@]}" "$corpus" "Tests/Fixtures/Corpus/$target" \
        >"$log" 2>&1 || status=$?
    stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
    line="$target: $(stat number_of_executed_units) executions, $(stat average_exec_per_sec) exec/s, "
    line+="$(stat new_units_added) new units, peak RSS $(stat peak_rss_mb) MB"
    if [[ $status -ne 0 ]]; then
        line+=", CRASHED (exit $status)"
        crashed+=("$target")
        grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*Fatal error:|artifact_prefix|Test unit written)" "$log" \
            | head -20 || true
    else
        line+=", no crash"
    fi
    echo "$line"
    summary+=("$line")
done

echo "== summary"
printf '%s\n' "${summary[@]}"
if [[ ${#crashed[@]} -gt 0 ]]; then
    echo "crashes in: ${crashed[*]}; inputs are in Tests/Fixtures/Crashes/<target>/ (see the logs in $scratch/)"
    exit 1
fi
