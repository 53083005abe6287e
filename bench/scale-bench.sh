#!/usr/bin/env bash
# The bench at scale (issue 30, "Bench at scale"; bench/README.md, "At scale"): what the number
# of stored tasks and the length of a task's history cost examples/tck-agent, on each of its
# stores, on loopback. For each store, a fresh agent, then src/bin/scale_load.rs: filled to each
# size, SendMessage of a new task measured alone and beside a ListTasks loop (and that loop's
# page latency), then the k-th message to one waiting task, and the k-th chunk of one artifact
# streamed with `append`.
#
#   bench/scale-bench.sh                       # 10k, 100k and 1M tasks; k = 1, 1,000, 10,000
#                                              # (each history cut at 300 s): long (an hour)
#   bench/scale-bench.sh --sizes 10000,100000 --history 1,1000 --stores memory,sqlite
#   TCK_AGENT_BIN=/path/to/tck-agent bench/scale-bench.sh   # another build of it, not built
#
# Options: --stores LIST (of memory, sqlite, postgres; all three unless given); anything else
# goes to scale_load (--sizes, --connections, --seconds, --rounds, --history, --history-seconds,
# --chunks).
# Builds tck-agent and scale_load in release, starts a PostgreSQL (target/scale-bench-pg,
# stopped on exit). Everything stops by itself; exits 1 when a request failed. The JSON lines
# and logs stay in target/scale-bench/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

stores=(memory sqlite postgres)
load_args=()
while (($#)); do
  case "$1" in
    --stores)
      [[ $# -ge 2 ]] || { echo "scale-bench: --stores needs a list" >&2; exit 2; }
      IFS=, read -r -a stores <<<"$2"
      shift
      ;;
    -h | --help)
      sed -n '2,/^set -euo pipefail$/{/^set /d;s/^# \{0,1\}//;p;}' "$0"
      exit 0
      ;;
    *) load_args+=("$1") ;;
  esac
  shift
done

target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/scale-bench"
pg_dir="$target/scale-bench-pg"
START_TIMEOUT=60
say() { printf 'scale-bench: %s\n' "$*"; }
# shellcheck source=lib.sh
source "$here/lib.sh"

agent_pid=""
pg_url=""
cleanup() {
  if [[ -n "$agent_pid" ]]; then
    kill "$agent_pid" 2>/dev/null || true
    wait "$agent_pid" 2>/dev/null || true
  fi
  if [[ -n "$pg_url" ]]; then
    "$root/a2a-agent/tests/start-postgres.sh" stop "$pg_dir" 2>/dev/null || true
  fi
}
trap cleanup EXIT
rm -rf "$out"
mkdir -p "$out"

if [[ -n "${TCK_AGENT_BIN:-}" ]]; then
  tck_agent="$TCK_AGENT_BIN"
else
  say "building tck-agent and scale_load (release)"
  cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin tck-agent
  tck_agent="$target/release/tck-agent"
fi
cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin scale_load
scale_load="$target/release/scale_load"
say "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

failed=0
for store in "${stores[@]}"; do
  case "$store" in
    memory) spec=memory ;;
    sqlite) spec="sqlite:$out/scale.sqlite" ;;
    postgres)
      if [[ -z "$pg_url" ]]; then
        port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        pg_url="$("$root/a2a-agent/tests/start-postgres.sh" start "$pg_dir" "$port" 2>"$out/postgres-start.log")"
      fi
      spec="postgres:$pg_url"
      ;;
    *) echo "scale-bench: unknown store $store" >&2; exit 2 ;;
  esac
  log="$out/rust-$store.log"
  "$tck_agent" --listen 127.0.0.1:0 --store "$spec" >"$log" 2>&1 &
  agent_pid=$!
  wait_for "rust-$store" "$agent_pid" "$log" tck_url "$log"
  say "rust-$store at $found"
  "$scale_load" ${load_args[@]+"${load_args[@]}"} --json "$out/scale.jsonl" "rust-$store=$found" || failed=1
  kill "$agent_pid" 2>/dev/null || true
  wait "$agent_pid" 2>/dev/null || true
  agent_pid=""
  if [[ "$store" == sqlite ]]; then
    say "rust-sqlite: the file is $(cat "$out"/scale.sqlite* | wc -c) bytes"
  fi
done
exit "$failed"
