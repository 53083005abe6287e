#!/usr/bin/env bash
# The callers bench (issue 29; bench/README.md, "Authentication and tracing"): examples/tck-agent
# on its memory store five ways, under serve_load's handler-new (a new task per call) in one run:
#
#   off     no authenticator (every call the anonymous caller), nothing subscribed to tracing
#   static  --auth-tokens: a static bearer token (StaticTokens, compared in constant time)
#   jwt     --auth-jwks: an ES256 JWT verified against a JWK Set (JwtAuthenticator)
#   log     --trace log: a request log line per call on stderr (tracing-subscriber's fmt)
#   otel    --trace otel: every span and metric through the OpenTelemetry SDK (batch processor,
#           periodic reader) to exporters that drop them
#
# serve_load prints each agent's req/s, p50 and p99 and the ratios of each to off.
#
#   bench/auth-bench.sh            # 8 s or 20,000 requests per agent: under a minute
#   bench/auth-bench.sh --smoke    # 200 requests or 1 s each: replies still checked
#   bench/auth-bench.sh --requests 100000 --seconds 10   # anything else goes to serve_load
#
# `off` runs the same binary as the others: the `otel` feature compiled in, no subscriber.
#
# Builds tck-agent, serve_load and mint_jwt in release (the features of CI's one release
# build, whose artifacts this reuses), starts the agents on free loopback ports, stops them on
# exit. Exits 1 when a request failed. Logs, the tokens file and the JWK Set stay in
# target/auth-bench/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

case "${1:-}" in
  -h | --help)
    sed -n '2,/^set -euo pipefail$/{/^set /d;s/^# \{0,1\}//;p;}' "$0"
    exit 0
    ;;
esac

target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/auth-bench"
rm -rf "$out"
mkdir -p "$out"
say() { printf 'auth-bench: %s\n' "$*"; }
START_TIMEOUT=60
# shellcheck source=lib.sh
source "$here/lib.sh"

pids=()
cleanup() {
  local pid
  for pid in ${pids[@]+"${pids[@]}"}; do
    kill "$pid" 2>/dev/null || true
  done
  wait 2>/dev/null || true
}
trap cleanup EXIT

say "building tck-agent, serve_load and mint_jwt (release)"
cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin tck-agent --bin serve_load --bin mint_jwt

# The credentials: one static token, and a JWT with the JWK Set that verifies it.
echo '{"bench-static-token": {"caller": "bench"}}' >"$out/tokens.json"
jwt="$("$target/release/mint_jwt" "$out/jwks.json")"

# start NAME ARGS..: starts tck-agent with ARGS on a free port; sets agent_url.
start() {
  local name="$1" log="$out/$1.log"
  shift
  "$target/release/tck-agent" --listen 127.0.0.1:0 --store memory "$@" >"$log" 2>&1 &
  pids+=("$!")
  wait_for "$name" "$!" "$log" tck_url "$log"
  agent_url="$found"
}

start off
off="$agent_url"
start static --auth-tokens "$out/tokens.json"
static="$agent_url"
start jwt --auth-jwks "$out/jwks.json"
jwt_url="$agent_url"
start log --trace log
log="$agent_url"
start otel --trace otel
otel="$agent_url"
say "agents: off $off, static $static, jwt $jwt_url, log $log, otel $otel"

"$target/release/serve_load" --workloads handler-new "$@" \
  --auth "static=Bearer bench-static-token" --auth "jwt=Bearer $jwt" \
  "off=$off" "static=$static" "jwt=$jwt_url" "log=$log" "otel=$otel" | tee "$out/serve_load.txt"
