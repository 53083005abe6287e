#!/usr/bin/env bash
# The server and client load bench (issue 20, item 6; bench/README.md, "Server and client load"):
# our Rust agent against a2a-sdk 1.3.0's agent (tests/interop/py/agent.py) on loopback, the same
# workloads in one run, then our client against the SDK's client calling the Rust agent, then
# gRPC (issue 31): SendMessage and SendStreamingMessage through our client to the SDK's gRPC
# server and to ours, and to ours over HTTP+JSON (the same client, agent and workload; only the
# binding differs).
#
#   bench/serve-bench.sh            # 8 s or 20,000 requests per workload and agent: about 2 min
#   bench/serve-bench.sh --smoke    # 200 requests or 1 s each: replies still checked (CI)
#   bench/serve-bench.sh --workloads card,stream    # any other option goes to serve_load
#
# Builds the Rust agent ($AGENT_BIN, a binary of this workspace; it must take a PORT_FILE argument,
# bind 127.0.0.1 on a free port and write the port there, as tests/interop/run.sh expects) and
# the load generators (bench/src/bin/serve_load.rs, client_load.rs) in release, makes the SDK's virtualenv
# (tests/interop/venv.sh, under target/), starts both agents on free loopback ports, runs
# serve_load against both (the SDK agent first: the baseline, so every ratio is rust/sdk), then
# bench/python/client_bench.py (the SDK's client) and client_load (ours) against the Rust agent
# (with serve_load's jsonrpc-send beside them: the HTTP exchange alone), and stops
# everything. Exits 1 when any request of any workload failed (the failures are printed), 2 on a
# usage error. Logs, the agents' port files and the JSON lines of the run stay in
# target/serve-bench/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

# The Rust agent under test: bench_agent (src/bin/bench_agent.rs), the request handler on the
# multi-threaded runtime as a user runs it. Beside it, always, the server's floor: the same
# binary with --canned, the same server answering the same bytes without the handler, measured
# between the SDK agent and the agent (so the table's rust/floor ratio is what the handler costs).
AGENT_BIN="${AGENT_BIN:-bench_agent}"
# Optional: another build of the Rust agent (same PORT_FILE contract), measured in the same run
# as "before", between the SDK agent and $AGENT_BIN: how the server layer is judged against the
# hand-wired agent it replaces (the ratios rust/before). For example, from a checkout of the
# commit before the rebuild: BEFORE_BIN=/path/to/that/target/release/interop-agent.
BEFORE_BIN="${BEFORE_BIN:-}"
# SDK_NODELAY=1: serve the SDK agent's app through bench/python/sdk_agent.py, which turns Nagle off
# on its connections (agent.py's socket leaves it on: a 40 ms stall per keep-alive request, which
# at 32 connections is hidden behind the SDK's own CPU time; see that file and bench/README.md).
SDK_NODELAY="${SDK_NODELAY:-0}"
# The pause between streamed events, for an agent that reads it (the interop agents do:
# tests/interop/src/serve.rs event_gap, 20 ms unless told; serve_load measures the gap either way
# and prints it beside the stream's latency).
export A2A_INTEROP_EVENT_GAP_MS="${A2A_INTEROP_EVENT_GAP_MS:-0}"

smoke=()
load_args=()
for arg in "$@"; do
  case "$arg" in
    --smoke) smoke=(--smoke) ;;
    -h | --help)
      sed -n '2,/^set -euo pipefail$/{/^set /d;s/^# \{0,1\}//;p;}' "$0"
      exit 0
      ;;
    *) load_args+=("$arg") ;;
  esac
done

# The bounds of the run, for the client half too (the workloads are the server half's).
client_args=()
for ((i = 0; i < ${#load_args[@]}; i++)); do
  case "${load_args[i]}" in
    --requests | --seconds | --warmup | --connections)
      client_args+=("${load_args[i]}" "${load_args[i + 1]:-}")
      i=$((i + 1))
      ;;
  esac
done

target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/serve-bench"
rm -rf "$out"
mkdir -p "$out"

# Seconds: to wait for an agent to listen, and for each whole measuring run.
START_TIMEOUT=60
RUN_TIMEOUT=900

say() { printf 'serve-bench: %s\n' "$*"; }
# shellcheck source=lib.sh
source "$here/lib.sh"

pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT

# start_agent NAME PORT_FILE LOG COMMAND...: starts an agent in the background and waits until it
# has written its port; sets agent_port. Fails with its log when it exits or stays silent.
start_agent() {
  local name="$1" port_file="$2" log="$3"
  shift 3
  rm -f "$port_file"
  "$@" "$port_file" >"$log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  wait_for "$name" "$pid" "$log" port_of "$port_file"
  agent_port="$found"
}

say "building $AGENT_BIN, serve_load and client_load (release)"
# --workspace --benches: the features of CI's one release build, whose artifacts this reuses (see .ci/run).
cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin "$AGENT_BIN" --bin bench_agent
cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin serve_load --bin client_load
agent_bin="$target/release/$AGENT_BIN"
serve_load="$target/release/serve_load"
client_load="$target/release/client_load"

venv="$("$root/tests/interop/venv.sh")"
python="$venv/bin/python"
say "$("$python" -c 'import importlib.metadata as m; print("a2a-sdk", m.version("a2a-sdk"), "with uvicorn", m.version("uvicorn"))')"

sdk_agent="$root/tests/interop/py/agent.py"
if [[ "$SDK_NODELAY" == 1 ]]; then
  sdk_agent="$here/python/sdk_agent.py"
fi
start_agent "the a2a-sdk agent" "$out/sdk-agent.port" "$out/sdk-agent.log" "$python" "$sdk_agent"
sdk_url="http://127.0.0.1:$agent_port"
agents=("sdk=$sdk_url")
if [[ -n "$BEFORE_BIN" ]]; then
  start_agent "the Rust agent before ($BEFORE_BIN)" "$out/before-agent.port" "$out/before-agent.log" \
    "$BEFORE_BIN"
  agents+=("before=http://127.0.0.1:$agent_port")
  say "before: $BEFORE_BIN at http://127.0.0.1:$agent_port"
fi
start_agent "the server's floor (bench_agent --canned)" "$out/floor-agent.port" \
  "$out/floor-agent.log" "$target/release/bench_agent" --canned
agents+=("floor=http://127.0.0.1:$agent_port")
start_agent "the Rust agent ($AGENT_BIN)" "$out/rust-agent.port" "$out/rust-agent.log" "$agent_bin"
rust_url="http://127.0.0.1:$agent_port"
agents+=("rust=$rust_url")
say "a2a-sdk agent (${sdk_agent#"$root"/}) at $sdk_url, Rust agent ($AGENT_BIN, release) at $rust_url"
say "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

failed=0

say "server: the same workloads against every agent (the SDK's first: the baseline)"
timeout "$RUN_TIMEOUT" "$serve_load" ${smoke[@]+"${smoke[@]}"} ${load_args[@]+"${load_args[@]}"} \
  --json "$out/server.jsonl" "${agents[@]}" || failed=1

say "client: SendMessage over JSON-RPC to the Rust agent, the SDK's client and ours"
timeout "$RUN_TIMEOUT" "$python" "$here/python/client_bench.py" ${smoke[@]+"${smoke[@]}"} \
  ${client_args[@]+"${client_args[@]}"} --label sdk-client "$rust_url" >"$out/client.jsonl" || failed=1
# Our client: a2a_runtime::transport::client (reqwest) on a2a_types::v1::Protocol.
timeout "$RUN_TIMEOUT" "$client_load" ${smoke[@]+"${smoke[@]}"} ${client_args[@]+"${client_args[@]}"} \
  --label ours "$rust_url" >>"$out/client.jsonl" || failed=1
# The floor under any client: serve_load's jsonrpc-send (a constant body over hyper, the reply
# only checked for its shape), the HTTP exchange without the A2A client's work.
timeout "$RUN_TIMEOUT" "$serve_load" ${smoke[@]+"${smoke[@]}"} ${client_args[@]+"${client_args[@]}"} \
  --workloads jsonrpc-send --json "$out/client.jsonl" "http-floor=$rust_url" >"$out/client-floor.txt" || failed=1
"$python" - "$out/client.jsonl" <<'EOF' || failed=1
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def ms(v):
    return '-' if v is None else f'{v:.0f} ms' if v >= 100 else f'{v:.1f} ms' if v >= 10 else f'{v:.2f} ms'
def ratio(a, b):
    if not a or not b:
        return '-'
    r = a / b
    return f'{r:.0f}x' if r >= 100 else f'{r:.2f}x' if r >= 1 else f'{r:.4f}x'
print(f"\nclient-send (SendMessage over JSON-RPC to the Rust agent): {rows[0]['connections']} "
      "concurrent calls, the bounds of the server half")
print(f"  {'client':<12} {'ok':>7} {'failed':>6} {'seconds':>7} {'req/s':>10} {'p50':>10} {'p99':>10}")
for r in rows:
    print(f"  {r['label']:<12} {r['ok']:>7} {r['failed']:>6} {r['seconds']:>7.2f} {r['rps']:>10.1f} "
          f"{ms(r['p50_ms']):>10} {ms(r['p99_ms']):>10}")
for j, r in enumerate(rows):
    for base in rows[:j]:
        print(f"  ratios {r['label']}/{base['label']}: req/s {ratio(r['rps'], base['rps'])}, "
              f"p50 {ratio(r['p50_ms'], base['p50_ms'])}, p99 {ratio(r['p99_ms'], base['p99_ms'])}")
for r in rows:
    if r['failed']:
        print(f"  FAILURES {r['label']} client-send: {r['failed']}")
        for reason, n in r['failures'].items():
            print(f"    {n:>7} x {reason}")
print("  (ours: a2a_runtime::transport::client on reqwest; http-floor: serve_load's jsonrpc-send, "
      "no client code)")
sys.exit(1 if any(r['failed'] for r in rows) else 0)
EOF

say "grpc: SendMessage and SendStreamingMessage through our client, over gRPC to the SDK's gRPC server (agent.py --grpc, its GrpcHandler) and to ours, and over HTTP+JSON to ours"
start_agent "the a2a-sdk agent with gRPC" "$out/sdk-grpc-agent.port" "$out/sdk-grpc-agent.log" \
  "$python" "$root/tests/interop/py/agent.py" --grpc
sdk_grpc_url="http://127.0.0.1:$agent_port"
: >"$out/grpc.jsonl"
for workload in send stream; do
  for run in "sdk-grpc grpc $sdk_grpc_url" "rust-grpc grpc $rust_url" "rust-rest http+json $rust_url"; do
    read -r label binding url <<<"$run"
    timeout "$RUN_TIMEOUT" "$client_load" ${smoke[@]+"${smoke[@]}"} ${client_args[@]+"${client_args[@]}"} \
      --label "$label" --binding "$binding" --workload "$workload" "$url" >>"$out/grpc.jsonl" || failed=1
  done
done
"$python" - "$out/grpc.jsonl" <<'EOF' || failed=1
import json, sys
rows = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
def ms(v):
    return '-' if v is None else f'{v:.0f} ms' if v >= 100 else f'{v:.1f} ms' if v >= 10 else f'{v:.2f} ms'
def ratio(a, b):
    return '-' if not a or not b else f'{a / b:.2f}x'
for workload in ('client-send', 'client-stream'):
    group = [r for r in rows if r['workload'] == workload]
    if not group:
        continue
    print(f"\n{workload} over gRPC and HTTP+JSON, our client ({group[0]['connections']} concurrent calls)")
    print(f"  {'agent':<10} {'binding':<10} {'ok':>7} {'failed':>6} {'req/s':>10} {'p50':>10} {'p99':>10}")
    for r in group:
        print(f"  {r['label']:<10} {r['binding']:<10} {r['ok']:>7} {r['failed']:>6} {r['rps']:>10.1f} "
              f"{ms(r['p50_ms']):>10} {ms(r['p99_ms']):>10}")
    by = {r['label']: r for r in group}
    for a, b in (('rust-grpc', 'sdk-grpc'), ('rust-grpc', 'rust-rest')):
        if a in by and b in by:
            print(f"  ratios {a}/{b}: req/s {ratio(by[a]['rps'], by[b]['rps'])}, "
                  f"p50 {ratio(by[a]['p50_ms'], by[b]['p50_ms'])}, p99 {ratio(by[a]['p99_ms'], by[b]['p99_ms'])}")
for r in rows:
    if r['failed']:
        print(f"  FAILURES {r['label']} {r['workload']}: {r['failed']}")
        for reason, n in r['failures'].items():
            print(f"    {n:>7} x {reason}")
sys.exit(1 if any(r['failed'] for r in rows) else 0)
EOF

if ((failed)); then
  say "FAILED: some requests failed or a run did not finish (logs in ${out#"$root"/})"
  exit 1
fi
say "done: every reply checked and good (JSON lines in ${out#"$root"/})"
