#!/usr/bin/env bash
# Live interop with the official Python SDK, a2a-sdk 1.3.0, in both directions, on loopback:
#
#   1. py/agent.py (a hello-world agent on the SDK's server API)  <-  interop-client (a2a-types + ureq)
#   2. interop-agent (a2a-types + axum, one derived custom error)  <-  py/client.py (the SDK's client)
#
# Installs the SDK into a virtualenv (tests/interop/venv.sh), builds the Rust programs, and starts
# and stops every process itself. Each phase is bounded in time. On failure it says which phase and
# step broke and prints both sides' logs. Logs stay in target/interop-logs/.
#
#   tests/interop/run.sh            # from anywhere in the checkout; CI runs it from .ci/run
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

target="${CARGO_TARGET_DIR:-$root/target}"
logs="$target/interop-logs"
rm -rf "$logs"
mkdir -p "$logs"

# Seconds: to wait for a server to listen, and for each whole client run.
START_TIMEOUT=60
CLIENT_TIMEOUT=120

pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT

say() { printf 'interop: %s\n' "$*"; }

show_logs() {
  local f
  for f in "$@"; do
    printf '\n----- %s -----\n' "${f#"$root"/}"
    cat "$f" 2>/dev/null || echo "(no log)"
  done
  printf -- '-----\n'
}

# start_server NAME PORT_FILE LOG COMMAND...: starts a server in the background and waits until it
# has written its port; sets server_pid and server_port. Fails with its log when it exits or stays
# silent. (Not run in a subshell, so that cleanup knows every pid.)
start_server() {
  local name="$1" port_file="$2" log="$3"
  shift 3
  rm -f "$port_file"
  timeout $((START_TIMEOUT + CLIENT_TIMEOUT + 30)) "$@" >"$log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  local waited=0
  while [[ ! -s "$port_file" ]]; do
    if ! kill -0 "$pid" 2>/dev/null; then
      say "$name exited before it was listening" >&2
      show_logs "$log" >&2
      return 1
    fi
    if ((waited >= START_TIMEOUT * 10)); then
      say "$name was not listening after ${START_TIMEOUT}s" >&2
      show_logs "$log" >&2
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
  server_pid="$pid"
  server_port="$(cat "$port_file")"
}

# run_client PHASE CLIENT_LOG SERVER_LOG COMMAND...: runs a client to the end (bounded); on failure
# names the step that failed and prints both logs.
run_client() {
  local phase="$1" client_log="$2" server_log="$3"
  shift 3
  local status=0
  timeout "$CLIENT_TIMEOUT" "$@" >"$client_log" 2>&1 || status=$?
  sed 's/^/  /' "$client_log"
  if ((status != 0)); then
    local failed
    failed="$(grep -m1 '^FAILED' "$client_log" || true)"
    if ((status == 124)); then
      failed="timed out after ${CLIENT_TIMEOUT}s"
    fi
    say "phase '$phase' failed (exit $status): ${failed:-see the logs}"
    show_logs "$client_log" "$server_log"
    return 1
  fi
}

say "building the Rust programs"
cargo build --locked -q -p a2a-interop
bin="$target/debug"

say "installing a2a-sdk 1.3.0 (pinned in tests/interop/requirements.txt)"
venv="$("$here/venv.sh")"
python="$venv/bin/python"
say "$("$python" -c 'import importlib.metadata as m; print("a2a-sdk", m.version("a2a-sdk"), "with uvicorn", m.version("uvicorn"))')"

say "phase 1: a2a-sdk agent <- Rust client (a2a-types)"
start_server "the a2a-sdk agent" "$logs/py-agent.port" "$logs/py-agent.log" \
  "$python" "$here/py/agent.py" "$logs/py-agent.port" || exit 1
run_client "a2a-sdk agent <- Rust client" "$logs/rust-client.log" "$logs/py-agent.log" \
  "$bin/interop-client" "http://127.0.0.1:$server_port" || exit 1
kill "$server_pid" 2>/dev/null || true

say "phase 2: Rust agent (a2a-types) <- a2a-sdk client"
start_server "the Rust agent" "$logs/rust-agent.port" "$logs/rust-agent.log" \
  "$bin/interop-agent" "$logs/rust-agent.port" || exit 1
run_client "Rust agent <- a2a-sdk client" "$logs/py-client.log" "$logs/rust-agent.log" \
  "$python" "$here/py/client.py" "http://127.0.0.1:$server_port" || exit 1
kill "$server_pid" 2>/dev/null || true

say "both directions passed"
