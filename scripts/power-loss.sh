#!/usr/bin/env bash
# Run PowerLossTests over every crash state (CI runs a sample: every 7th state of each crash point,
# and the last). Prints, per store configuration, the crash points and the states tried.
#
#   scripts/power-loss.sh
#
# Under the shared build lock ($SWIFT_BUILD_LOCK, default /tmp/swift-build.lock; `none` to skip)
# when `flock` exists. Exit status: that of `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
lock=${SWIFT_BUILD_LOCK:-/tmp/swift-build.lock}
run=(swift test --filter PowerLossTests)
if [[ $lock != none ]] && command -v flock >/dev/null; then run=(flock "$lock" "${run[@]}"); fi
POWER_LOSS_EVERY_STATE=1 "${run[@]}" 2>&1 | grep -E "^PowerLossTests|✘|Test run|error:"
