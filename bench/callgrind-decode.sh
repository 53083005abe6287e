#!/usr/bin/env bash
# Instructions per decode (valgrind --tool=callgrind) of a2a-types and its baselines, on the
# bodies of the decode bench (tests/benches/decode.rs; both take them from
# a2a_tests::decode_workload). Instruction counts repeat within a few instructions per decode from
# run to run, where wall-clock times on a shared machine move by 10-20%: a second, stable measure
# beside criterion.
#
#   bench/callgrind-decode.sh [CASE...]     # default: every case
#
# For each case, `a2a-bench decode CASE DECODER REPS` runs under callgrind once with REPS = 0
# (building the bodies, the same for every decoder) and once per decoder with REPS > 0; the
# difference divided by REPS is one decode. It prints those, and ours / baseline: below 1.00 means
# a2a-types executes fewer instructions than the baseline. Instructions are not time (cache misses
# and branch mispredictions are not counted), but a change that adds work shows up here first.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "callgrind-decode.sh: valgrind is not installed" >&2; exit 1; }

cargo build --release --quiet --locked -p a2a-bench --bin a2a-bench
target="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="$target/release/a2a-bench"

cases=("$@")
[[ ${#cases[@]} -gt 0 ]] || cases=(task_2kb task_200kb error_reply sse_1000_events task_2kb_rest)

decoders() {
  case "$1" in
    task_2kb | task_200kb | task_2kb_rest) echo "a2a_types plain_serde_json via_value" ;;
    error_reply) echo "a2a_types plain_serde_json" ;;
    sse_1000_events) echo "a2a_types naive_split" ;;
    *) echo "callgrind-decode.sh: unknown case $1" >&2; exit 2 ;;
  esac
}

# Repetitions per case: enough that one decode is far above the noise of process start-up.
reps() {
  case "$1" in
    task_2kb | task_2kb_rest) echo 400 ;;
    task_200kb) echo 20 ;;
    error_reply) echo 1000 ;;
    *) echo 5 ;;
  esac
}

# Total instructions of one run ("Collected : N" on callgrind's stderr).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" decode "$@" 2>&1 >/dev/null |
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p'
}

printf '%-16s %-18s %14s %14s\n' case decoder "instr/decode" "ours/this"
for case in "${cases[@]}"; do
  read -r -a names <<<"$(decoders "$case")"
  n="$(reps "$case")"
  base="$(instructions "$case" a2a_types 0)"
  declare -A per=()
  for decoder in "${names[@]}"; do
    total="$(instructions "$case" "$decoder" "$n")"
    per[$decoder]=$(((total - base) / n))
  done
  for decoder in "${names[@]}"; do
    ratio="$(awk -v o="${per[a2a_types]}" -v t="${per[$decoder]}" 'BEGIN { printf "%.3f", o / t }')"
    printf '%-16s %-18s %14d %14s\n' "$case" "$decoder" "${per[$decoder]}" "$ratio"
  done
  unset per
done
echo "(ours/this: a2a-types' instructions per decode divided by this decoder's; $(valgrind --version))"
