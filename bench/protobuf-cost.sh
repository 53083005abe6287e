#!/usr/bin/env bash
# a2a-types' protobuf codec against prost (prost-build's structs for the same normative proto),
# in instructions per operation (valgrind --tool=callgrind), which repeat from run to run where
# wall-clock times on a shared machine do not; then the wall-clock ratios (noisy).
#
#   bench/protobuf-cost.sh [CASE...]     # default: task_2kb task_200kb; about 1 min after the build
#
# Encode and decode of the decode bench's 2 KB and 200 KB `Task` (a2a_tests::decode_workload),
# the same value on both sides (bench/src/bin/protobuf_cost.rs). For each case,
# `protobuf_cost CASE ours decode 0` runs under callgrind once (the setup alone: building and
# checking both sides' values and bytes, the same whatever the arguments), and
# `protobuf_cost CASE IMPL OP REPS` once per implementation and operation; the difference divided
# by REPS is one operation. Prints both and ours/prost: above 1.00 a2a-types executes more
# instructions than prost. Instructions are not time (cache misses and branch mispredictions are
# not counted), but a change that adds work shows up here first.
#
# Needs the normative proto (../shared, or $A2A_SHARED_DIR): without it the binary prints SKIPPED
# and so does this script (the build fails instead when CI is set).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "protobuf-cost.sh: valgrind is not installed" >&2; exit 1; }

cargo build --release --quiet --locked -p a2a-bench --features prost-baseline --bin protobuf_cost
target="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="$target/release/protobuf_cost"

if skipped="$("$bin" 2>/dev/null | grep '^SKIPPED')"; then
  echo "$skipped"
  exit 0
fi

cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(task_2kb task_200kb)

# Operations per run: enough that one operation is far above the noise of process start-up.
reps() {
  case "$1" in
    task_2kb) echo 400 ;;
    task_200kb) echo 20 ;;
    *) echo "protobuf-cost.sh: unknown case $1" >&2; exit 2 ;;
  esac
}

# Total instructions of one run ("Collected : N" on callgrind's stderr).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$@" 2>&1 >/dev/null |
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p'
}

printf '%-11s %-7s %16s %16s %11s\n' case op "ours instr/op" "prost instr/op" "ours/prost"
for case in "${cases[@]}"; do
  n="$(reps "$case")"
  base="$(instructions "$case" ours decode 0)"
  for op in encode decode; do
    ours=$((($(instructions "$case" ours "$op" "$n") - base) / n))
    prost=$((($(instructions "$case" prost "$op" "$n") - base) / n))
    ratio="$(awk -v o="$ours" -v p="$prost" 'BEGIN { printf "%.3f", o / p }')"
    printf '%-11s %-7s %16d %16d %11s\n' "$case" "$op" "$ours" "$prost" "$ratio"
  done
done
echo "(ours/prost: a2a-types' instructions per operation divided by prost's; $(valgrind --version))"
echo
"$bin" --wall "${ROUNDS:-11}"
