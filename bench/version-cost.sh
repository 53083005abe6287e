#!/usr/bin/env bash
# What serving A2A 0.3 through the generated conversions costs a call (issue 32), in instructions
# (valgrind --tool=callgrind), which repeat from run to run where wall-clock times on a shared
# machine do not: the same request handler answering 0.3 `message/send` (through
# `a2a_types::v0_3::Compat`) against 1.0 `SendMessage`, each call decoded, dispatched and encoded
# as the server does (bench/src/bin/version_cost.rs).
#
#   bench/version-cost.sh [CALLS] [BINDING]    # 2000 calls per version, jsonrpc; about 1 min
#   bench/version-cost.sh 2000 rest            # over HTTP+JSON: 0.3's /v1/message:send
#                                              # (translated) against 1.0's /message:send
#
# For each version, `version_cost --only V --rounds 1` runs under callgrind with 1 call and with
# CALLS + 1; the difference divided by CALLS is one call. Prints both and 0.3/1.0. The binary
# without valgrind prints wall-clock rounds and their median ratio instead.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "version-cost.sh: valgrind is not installed" >&2; exit 1; }
calls="${1:-2000}"
binding="${2:-jsonrpc}"

cargo build --release --quiet --locked -p a2a-bench --bin version_cost
target="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="$target/release/version_cost"

# Total instructions of one run ("Collected : N" on callgrind's stderr).
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" --rounds 1 --binding "$binding" "$@" 2>&1 >/dev/null |
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p'
}

declare -A per=()
for version in 1.0 0.3; do
  base="$(instructions --only "$version" --calls 1)"
  total="$(instructions --only "$version" --calls "$((calls + 1))")"
  per[$version]=$(((total - base) / calls))
done
printf '%-26s %14s\n' "call ($binding)" "instr/call"
printf '%-26s %14d\n' "1.0 SendMessage" "${per[1.0]}"
printf '%-26s %14d\n' "0.3 message/send (Compat)" "${per[0.3]}"
awk -v a="${per[0.3]}" -v b="${per[1.0]}" 'BEGIN { printf "0.3/1.0: %.3fx\n", a / b }'
echo "($calls calls per version; $(valgrind --version))"
