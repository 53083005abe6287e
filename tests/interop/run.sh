#!/usr/bin/env bash
# Live interop with the official Python SDK, a2a-sdk 1.3.0 (and 0.3.26's client), in both directions, both protocol
# versions and the three bindings of A2A 1.0, on loopback; every method is called in each
# direction:
#
#   1. py/agent.py (the SDK's server API), A2A 1.0       <-  interop-client (a2a_types::v1 + reqwest)
#   2. interop-agent (a2a_agent::RequestHandler + AgentRouter), A2A 1.0 <- py/client.py (the SDK's client)
#   3. py/agent.py again, A2A 0.3 (the SDK's compat)     <-  interop-client-v0-3 (a2a_types::v0_3)
#   4. interop-agent, A2A 0.3 (the handler's 0.3)          <-  py/client.py --v0.3 (the SDK's client)
#   5. py/agent.py's REST routes, A2A 1.0 over HTTP+JSON <-  interop-client-rest (a2a_types::v1)
#   6. interop-agent's REST routes, A2A 1.0 over HTTP+JSON <- py/client.py --rest (RestTransport)
#   7. interop-agent, A2A 0.3                               <-  py/client_v0_3.py (a2a-sdk 0.3.26)
#   8. py/agent_v0_3.py (a2a-sdk 0.3.26), A2A 0.3 only      <-  interop-client-any (AnyClient, 1.0 types)
#   9. interop-agent over gRPC, A2A 1.0                     <-  py/client.py --grpc (GrpcTransport)
#  10. py/agent.py --grpc (the SDK's GrpcHandler), A2A 1.0  <-  interop-client --grpc (our Client over gRPC)
#  11. interop-agent, A2A 0.3 over HTTP+JSON (/v1/...)      <-  py/client_v0_3.py --rest (0.3.26's RestTransport)
#  12. interop-agent, A2A 0.3 over HTTP+JSON                <-  py/client.py --v0.3 --rest (1.3.0's CompatRestTransport)
#  13. py/agent_v0_3.py --rest (0.3.26's REST server)       <-  interop-client-any --rest (AnyClient over 0.3's HTTP+JSON)
#
# Installs the SDKs into virtualenvs (tests/interop/venv.sh, and `venv.sh 0.3` for 0.3.26), builds the Rust programs, and starts
# and stops every process itself. Each server start and each client run is bounded in time. Every
# phase runs even when an earlier one failed; a failed phase is named with its first failed step,
# and both sides' logs are printed; the script then exits 1. Logs stay in target/interop-logs/.
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
# names the first step that failed and prints both logs.
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
    say "phase $phase failed (exit $status): ${failed:-see the logs}"
    show_logs "$client_log" "$server_log"
    return 1
  fi
}

# run_phase NUMBER TITLE SERVER_NAME SERVER_LOG CLIENT_LOG: starts "${server[@]}" PORT_FILE, runs
# "${client[@]}" URL against it, stops the server. A failure is added to failed_phases.
failed_phases=()
run_phase() {
  local number="$1" title="$2" name="$3" server_log="$logs/$4" client_log="$logs/$5"
  say "phase $number: $title"
  local port_file="$logs/${4%.log}.port"
  if ! start_server "$name" "$port_file" "$server_log" "${server[@]}" "$port_file"; then
    say "phase $number ($title) failed: $name did not start"
    failed_phases+=("$number ($title): $name did not start")
    return 0
  fi
  if ! run_client "$number ($title)" "$client_log" "$server_log" \
    "${client[@]}" "http://127.0.0.1:$server_port"; then
    failed_phases+=("$number ($title): $(grep -m1 '^FAILED' "$client_log" || echo 'see the logs')")
  fi
  kill "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
}

say "building the Rust programs"
# --workspace --tests: the features of the README's test build, whose artifacts this reuses (see .ci/run).
cargo build --locked -q --workspace --tests --bin interop-agent --bin interop-client-any \
  --bin interop-client --bin interop-client-v0-3 --bin interop-client-rest
bin="$target/debug"

say "installing a2a-sdk 1.3.0 (pinned in tests/interop/requirements.txt)"
venv="$("$here/venv.sh")"
python="$venv/bin/python"
say "$("$python" -c 'import importlib.metadata as m; print("a2a-sdk", m.version("a2a-sdk"), "with uvicorn", m.version("uvicorn"))')"

server=("$python" "$here/py/agent.py")
client=("$bin/interop-client")
run_phase 1 "a2a-sdk agent <- Rust client (a2a_types::v1), A2A 1.0" \
  "the a2a-sdk agent" py-agent.log rust-client.log

server=("$bin/interop-agent")
client=("$python" "$here/py/client.py")
run_phase 2 "Rust agent (a2a_types::v1) <- a2a-sdk client, A2A 1.0" \
  "the Rust agent" rust-agent.log py-client.log

server=("$python" "$here/py/agent.py")
client=("$bin/interop-client-v0-3")
run_phase 3 "a2a-sdk agent <- Rust client (a2a_types::v0_3), A2A 0.3" \
  "the a2a-sdk agent" py-agent-v0-3.log rust-client-v0-3.log

server=("$bin/interop-agent")
client=("$python" "$here/py/client.py" --v0.3)
run_phase 4 "Rust agent (the same handler, A2A 0.3) <- a2a-sdk client, A2A 0.3" \
  "the Rust agent" rust-agent-v0-3.log py-client-v0-3.log

server=("$python" "$here/py/agent.py")
client=("$bin/interop-client-rest")
run_phase 5 "a2a-sdk REST agent <- Rust client (a2a_types::v1), A2A 1.0 over HTTP+JSON" \
  "the a2a-sdk agent" py-agent-rest.log rust-client-rest.log

server=("$bin/interop-agent")
client=("$python" "$here/py/client.py" --rest)
run_phase 6 "Rust REST agent (a2a_types::v1) <- a2a-sdk REST client, A2A 1.0 over HTTP+JSON" \
  "the Rust agent" rust-agent-rest.log py-client-rest.log

say "installing a2a-sdk 0.3.26, a real 0.3 client and agent (pinned in tests/interop/requirements-v0.3.txt)"
venv03="$("$here/venv.sh" 0.3)"

server=("$bin/interop-agent")
client=("$venv03/bin/python" "$here/py/client_v0_3.py")
run_phase 7 "Rust agent (the same handler, A2A 0.3) <- a2a-sdk 0.3.26's client, A2A 0.3" \
  "the Rust agent" rust-agent-sdk-0-3.log py-client-sdk-0-3.log

client=("$venv03/bin/python" "$here/py/client_v0_3.py" --rest)
run_phase 11 "Rust agent (the same handler, A2A 0.3 over HTTP+JSON) <- a2a-sdk 0.3.26's RestTransport" \
  "the Rust agent" rust-agent-sdk-0-3-rest.log py-client-sdk-0-3-rest.log

client=("$python" "$here/py/client.py" --v0.3 --rest)
run_phase 12 "Rust agent (the same handler, A2A 0.3 over HTTP+JSON) <- a2a-sdk 1.3.0's CompatRestTransport" \
  "the Rust agent" rust-agent-v0-3-rest.log py-client-v0-3-rest.log

server=("$venv03/bin/python" "$here/py/agent_v0_3.py")
client=("$bin/interop-client-any")
run_phase 8 "a2a-sdk 0.3.26 agent (0.3 only) <- Rust client written against 1.0 (AnyClient)" \
  "the a2a-sdk 0.3.26 agent" py-agent-sdk-0-3.log rust-client-any.log

server=("$venv03/bin/python" "$here/py/agent_v0_3.py" --rest)
client=("$bin/interop-client-any" --rest)
run_phase 13 "a2a-sdk 0.3.26 agent (0.3 over HTTP+JSON only) <- Rust client written against 1.0 (AnyClient over 0.3's REST)" \
  "the a2a-sdk 0.3.26 agent" py-agent-sdk-0-3-rest.log rust-client-any-rest.log

server=("$bin/interop-agent")
client=("$python" "$here/py/client.py" --grpc)
run_phase 9 "Rust agent over gRPC (the same handler) <- a2a-sdk gRPC client (GrpcTransport), A2A 1.0" \
  "the Rust agent" rust-agent-grpc.log py-client-grpc.log

server=("$python" "$here/py/agent.py" --grpc)
client=("$bin/interop-client" --grpc)
run_phase 10 "a2a-sdk gRPC agent (GrpcHandler) <- Rust client over gRPC (a2a_types::v1), A2A 1.0" \
  "the a2a-sdk agent" py-agent-grpc.log rust-client-grpc.log

if ((${#failed_phases[@]} > 0)); then
  say "${#failed_phases[@]} of 13 phases failed:"
  printf '  phase %s\n' "${failed_phases[@]}"
  exit 1
fi
say "all 13 phases passed: both directions, A2A 1.0 (JSON-RPC, HTTP+JSON and gRPC) and 0.3 (a2a-sdk 1.3.0's compat layer and a2a-sdk 0.3.26, client and agent; 0.3 over JSON-RPC and HTTP+JSON, both ways)"
