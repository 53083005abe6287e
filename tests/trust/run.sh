#!/usr/bin/env bash
# Signed agent cards and push-notification webhooks against the official Python SDK, a2a-sdk
# 1.3.0 (its `signing` extra), both ways, on loopback:
#
#   1. the SDK signs cards (ES256, EdDSA)          ->  trust-interop verify (a2a_runtime::trust)
#   2. trust-interop sign (ES256, EdDSA)           ->  the SDK's verifier
#   3. the SDK's push sender                       ->  trust-interop webhook (a Rust receiver)
#
# Tampered cards (a member changed, a member added, a signature byte flipped) must fail on both
# sides. Installs the SDK into a virtualenv (venv.sh), builds the Rust program, starts and stops
# every process itself; each step is bounded in time. Every phase runs even when an earlier one
# failed; the script then exits 1. Files and logs stay in target/trust-interop/.
#
#   tests/trust/run.sh            # from anywhere in the checkout; CI runs it from .ci/run
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

target="${CARGO_TARGET_DIR:-$root/target}"
work="$target/trust-interop"
rm -rf "$work"
mkdir -p "$work"
STEP_TIMEOUT=120

say() { printf 'trust: %s\n' "$*"; }

venv="$("$here/venv.sh")"
python="$venv/bin/python"
say "building trust-interop"
# --workspace --tests: the features of the README's test build, whose artifacts this reuses (see .ci/run).
cargo build --locked -q --workspace --tests --bin trust-interop
rust="$target/debug/trust-interop"

failed=()
# phase NAME COMMAND...: runs one bounded step, its output kept in a log and its summary lines
# (the ones naming counts) printed; a failure names the phase and prints the log.
phase() {
  local name="$1"
  shift
  local log="$work/$name.log"
  if timeout "$STEP_TIMEOUT" "$@" >"$log" 2>&1; then
    grep -E '^(sdk|rust) [a-z]+:|passed, .* failed' "$log" | sed 's/^/  /' || true
  else
    say "FAILED: $name"
    grep -v 'is not spec-compliant' "$log" | sed 's/^/  | /'
    failed+=("$name")
  fi
}

say "phase 1: a2a-sdk signs, a2a_runtime::trust verifies"
phase sdk-sign "$python" "$here/py/sdk.py" sign "$work"
phase rust-verify "$rust" verify "$work"

say "phase 2: a2a_runtime::trust signs, a2a-sdk's verifier verifies"
phase rust-sign "$rust" sign "$work"
phase sdk-verify "$python" "$here/py/sdk.py" verify "$work"

say "phase 3: a2a-sdk's push sender posts to a Rust webhook on 127.0.0.1"
token="trust-run-$$-$RANDOM"
port_file="$work/webhook.port"
# 4 notifications with the registered token and credentials, 2 refused (a wrong token, wrong
# credentials).
timeout "$STEP_TIMEOUT" "$rust" webhook "$port_file" "$token" 4 2 >"$work/webhook.log" 2>&1 &
webhook_pid=$!
trap 'kill "$webhook_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  [[ -s "$port_file" ]] && break
  kill -0 "$webhook_pid" 2>/dev/null || break
  sleep 0.1
done
if [[ -s "$port_file" ]]; then
  phase sdk-push "$python" "$here/py/sdk.py" push "http://127.0.0.1:$(cat "$port_file")/webhook" "$token"
  if wait "$webhook_pid"; then
    grep -E '^rust webhook:|passed, .* failed' "$work/webhook.log" | sed 's/^/  /'
  else
    say "FAILED: webhook"
    sed 's/^/  | /' "$work/webhook.log"
    failed+=(webhook)
  fi
else
  say "FAILED: the webhook did not start"
  sed 's/^/  | /' "$work/webhook.log"
  failed+=(webhook)
fi
trap - EXIT

if ((${#failed[@]})); then
  say "failed: ${failed[*]} (logs in ${work#"$root"/}/)"
  exit 1
fi
say "all phases passed"
