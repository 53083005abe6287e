#!/usr/bin/env bash
# The request-handler and store bench (issue 21, item 7; bench/README.md, "Request handler and
# stores"): examples/tck-agent (a2a-agent's RequestHandler) with each of its stores against
# a2a-sdk 1.3.0's DefaultRequestHandler with each of its stores (bench/python/handler_agent.py),
# on loopback, the same workloads in one run, then the memory each holds after many tasks.
#
#   bench/handler-bench.sh            # throughput as serve-bench.sh (8 s or 20,000 requests per
#                                     # workload and agent), then 100,000 tasks per agent for the
#                                     # memory (the SDK's SQLite store cut at 600 s): ~25 minutes
#   bench/handler-bench.sh --smoke    # 200 requests or 1 s each, 300 tasks for the memory (CI)
#   bench/handler-bench.sh --memory-tasks 20000 --tasks 2000 --seconds 4
#   TCK_AGENT_BIN=/path/to/tck-agent bench/handler-bench.sh   # another build of it, not built
#   TCK_AGENT_BASELINE=/path/to/old/tck-agent bench/handler-bench.sh   # and an older build beside
#                                     # it on each of its stores (before-memory, before-sqlite,
#                                     # before-postgres), throughput only: what a change cost
#
# Options: --smoke; --memory-tasks N (tasks created before the memory is read; default 100,000,
# 300 with --smoke); --memory-seconds S (a time bound on each of those creations, default 600:
# at about 50 tasks/s the SDK's SQLite store would need over half an hour for 100,000; the
# table says when a creation was cut short, and prints the growth per task); anything else goes
# to serve_load (--tasks, --connections, --requests, --seconds, --warmup, --threads).
#
# Agents and stores, each on 127.0.0.1 on a free port, each store fresh:
#   sdk-memory      handler_agent.py --store memory           (InMemoryTaskStore)
#   rust-memory     tck-agent --store memory                  (MemoryStore)
#   sdk-sqlite      handler_agent.py --store sqlite:FILE      (DatabaseTaskStore: SQLAlchemy,
#                                                              aiosqlite, SQLite's defaults)
#   sdk-sqlite-wal  handler_agent.py --store sqlite-wal:FILE  (the same, in WAL mode with
#                                                              synchronous=NORMAL: throughput only)
#   rust-sqlite     tck-agent --store sqlite:FILE             (SqliteStore: WAL, synchronous=FULL,
#                                                              its durable default)
#   rust-sqlite-normal  tck-agent ... --sqlite-sync normal    (the same, synchronous=NORMAL:
#                                                              throughput only)
#   rust-postgres   tck-agent --store postgres:URL            (PostgresStore;
#                                                              a2a-agent/tests/start-postgres.sh)
#
# 1. Throughput: serve_load's handler-new and handler-existing against all six (the order
#    above, for every workload); then a table of req/s, p50 and p99 with the ratios rust/sdk of
#    the matching store (memory/memory, sqlite/sqlite, and our sqlite against the SDK's in WAL
#    mode; postgres against our sqlite, the SDK having no PostgreSQL run here).
# 2. Memory: each agent and store but sdk-sqlite-wal and rust-sqlite-normal again, one at a time, fresh: its RSS
#    (VmRSS of /proc/PID/status) once it listens, then handler-new with a count bound of
#    --memory-tasks (no warm-up, the same concurrency), then its RSS and peak (VmHWM) and the
#    store's size on disk; how long the creation took. The RSS is the agent's process only (for
#    PostgreSQL, not the server's).
#
# Builds tck-agent (unless TCK_AGENT_BIN is set) and serve_load in release, makes the SDK's virtualenv (tests/interop/venv.sh)
# and installs bench/python/requirements-sql.txt into it when missing, starts a PostgreSQL
# (target/handler-bench-pg, stopped on exit). Everything stops by itself; exits 1 when any
# request failed or a run did not finish, 2 on a usage error. Logs, SQLite files and the JSON
# lines of the run stay in target/handler-bench/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"

smoke=()
load_args=()
memory_tasks=""
memory_seconds=600
while (($#)); do
  case "$1" in
    --smoke) smoke=(--smoke) ;;
    --memory-tasks | --memory-seconds)
      [[ $# -ge 2 && "$2" =~ ^[0-9]+$ && "$2" -gt 0 ]] || {
        echo "handler-bench: $1 needs a number above 0" >&2
        exit 2
      }
      if [[ "$1" == --memory-tasks ]]; then memory_tasks="$2"; else memory_seconds="$2"; fi
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
if [[ -z "$memory_tasks" ]]; then
  memory_tasks=$((${#smoke[@]} ? 300 : 100000))
fi

target="${CARGO_TARGET_DIR:-$root/target}"
out="$target/handler-bench"
pg_dir="$target/handler-bench-pg"
START_TIMEOUT=60
RUN_TIMEOUT=900

say() { printf 'handler-bench: %s\n' "$*"; }
# shellcheck source=lib.sh
source "$here/lib.sh"

pids=()
pg_url=""
cleanup() {
  for pid in ${pids[@]+"${pids[@]}"}; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in ${pids[@]+"${pids[@]}"}; do
    wait "$pid" 2>/dev/null || true
  done
  if [[ -n "$pg_url" ]]; then
    "$root/a2a-agent/tests/start-postgres.sh" stop "$pg_dir" 2>/dev/null || true
  fi
}
trap cleanup EXIT

rm -rf "$out"
mkdir -p "$out"

# Two commands, as serve-bench.sh builds serve_load: its build is shared with that script's.
if [[ -n "${TCK_AGENT_BIN:-}" ]]; then
  tck_agent="$TCK_AGENT_BIN"
  say "tck-agent: $tck_agent (TCK_AGENT_BIN, not built); building serve_load (release)"
else
  say "building tck-agent and serve_load (release)"
  # --workspace --benches: the features of CI's one release build, whose artifacts this reuses (see .ci/run).
  cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin tck-agent
  tck_agent="$target/release/tck-agent"
fi
cargo build --release --locked -q --workspace --benches --features a2a-bench/prost-baseline --bin serve_load
serve_load="$target/release/serve_load"

venv="$("$root/tests/interop/venv.sh")"
python="$venv/bin/python"
# The SDK's database store needs SQLAlchemy and aiosqlite (its `sqlite` extra), which the interop
# tests do not: installed into the same venv, pinned, when a pin is not what is there.
if ! "$python" - "$here/python/requirements-sql.txt" <<'EOF'; then
import importlib.metadata as m, sys
for line in open(sys.argv[1]):
    line = line.split('#')[0].strip()
    if line:
        name, version = line.split('==')
        try:
            if m.version(name) != version:
                sys.exit(1)
        except m.PackageNotFoundError:
            sys.exit(1)
EOF
  say "installing bench/python/requirements-sql.txt into ${venv#"$root"/}"
  "$python" -m pip install --quiet --disable-pip-version-check -r "$here/python/requirements-sql.txt"
fi
say "$("$python" -c 'import importlib.metadata as m; print(", ".join(f"{p} {m.version(p)}" for p in ("a2a-sdk", "uvicorn", "SQLAlchemy", "aiosqlite")))')"

free_port() { "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# PostgreSQL: a cluster of our own on a free loopback port; a fresh database per phase.
pg_port="$(free_port)"
pg_url="$("$root/a2a-agent/tests/start-postgres.sh" start "$pg_dir" "$pg_port" 2>"$out/postgres-start.log")" || {
  say "PostgreSQL did not start (${out#"$root"/}/postgres-start.log):" >&2
  cat "$out/postgres-start.log" >&2
  exit 1
}
psql_bin="$(command -v psql || ls -d /usr/lib/postgresql/*/bin/psql 2>/dev/null | sort -V | tail -n 1)"
# fresh_db NAME: drops and creates the database NAME in that cluster; prints its URL.
fresh_db() {
  "$psql_bin" -X -q "$pg_url" -c "SET client_min_messages = warning" \
    -c "DROP DATABASE IF EXISTS $1" -c "CREATE DATABASE $1" >&2
  echo "${pg_url%/*}/$1"
}
pg_size() { "$psql_bin" -X -q -tA "$1" -c 'SELECT pg_database_size(current_database())'; }

# start NAME STORE PHASE: starts agent NAME (sdk-* or rust-*) on store STORE (memory,
# sqlite:PATH, sqlite-wal:PATH, postgres:URL) for PHASE (load or memory) and waits until it
# listens; sets agent_pid and agent_url.
start() {
  local name="$1" store="$2" log="$out/$1-$3.log" port_file="$out/$1-$3.port"
  rm -f "$port_file" "$log"
  case "$name" in
    sdk-*) "$python" "$here/python/handler_agent.py" --store "$store" "$port_file" >"$log" 2>&1 & ;;
    rust-sqlite-normal)
      "$tck_agent" --listen 127.0.0.1:0 --store "$store" --sqlite-sync normal >"$log" 2>&1 &
      ;;
    rust-*) "$tck_agent" --listen 127.0.0.1:0 --store "$store" >"$log" 2>&1 & ;;
    before-*) "$TCK_AGENT_BASELINE" --listen 127.0.0.1:0 --store "$store" >"$log" 2>&1 & ;;
  esac
  agent_pid=$!
  pids+=("$agent_pid")
  case "$name" in
    sdk-*)
      wait_for "$name" "$agent_pid" "$log" port_of "$port_file"
      agent_url="http://127.0.0.1:$found"
      ;;
    rust-* | before-*)
      wait_for "$name" "$agent_pid" "$log" tck_url "$log"
      agent_url="$found"
      ;;
  esac
}

# stop PID: stops that agent and waits for it (and forgets it: cleanup kills only live agents).
stop() {
  kill "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  local live=() pid
  for pid in "${pids[@]}"; do
    [[ "$pid" == "$1" ]] || live+=("$pid")
  done
  pids=(${live[@]+"${live[@]}"})
}

# The store of agent NAME in PHASE (load or memory), fresh.
store_of() {
  case "$1" in
    *-memory) echo memory ;;
    *-sqlite) rm -f "$out/$1-$2.sqlite"*; echo "sqlite:$out/$1-$2.sqlite" ;;
    *-sqlite-wal) rm -f "$out/$1-$2.sqlite"*; echo "sqlite-wal:$out/$1-$2.sqlite" ;;
    *-sqlite-normal) rm -f "$out/$1-$2.sqlite"*; echo "sqlite:$out/$1-$2.sqlite" ;;
    *-postgres) echo "postgres:$(fresh_db "hb_${1//-/_}_$2")" ;;
  esac
}

agents=(sdk-memory rust-memory sdk-sqlite sdk-sqlite-wal rust-sqlite rust-sqlite-normal rust-postgres)
if [[ -n "${TCK_AGENT_BASELINE:-}" ]]; then
  agents+=(before-memory before-sqlite before-postgres)
  say "baseline: $TCK_AGENT_BASELINE (TCK_AGENT_BASELINE) on each of its stores"
fi
memory_agents=(sdk-memory rust-memory sdk-sqlite rust-sqlite rust-postgres)
say "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
failed=0

say "throughput: handler-new and handler-existing against every agent and store"
targets=()
load_pids=()
for name in "${agents[@]}"; do
  start "$name" "$(store_of "$name" load)" load
  targets+=("$name=$agent_url")
  load_pids+=("$agent_pid")
  say "$name at $agent_url"
done
timeout "$RUN_TIMEOUT" "$serve_load" ${smoke[@]+"${smoke[@]}"} ${load_args[@]+"${load_args[@]}"} \
  --workloads handler-new,handler-existing --json "$out/load.jsonl" "${targets[@]}" || failed=1
for pid in "${load_pids[@]}"; do stop "$pid"; done

say "memory: $memory_tasks new tasks per agent and store (handler-new, no warm-up), one agent at a time"
: >"$out/memory.tsv"
for name in "${memory_agents[@]}"; do
  store="$(store_of "$name" memory)"
  start "$name" "$store" memory
  rss_idle="$(awk '/^VmRSS:/ {print $2}' "/proc/$agent_pid/status")"
  # The bounds of this run: the count (the time bound only as a limit), same connections.
  mem_args=()
  for ((i = 0; i < ${#load_args[@]}; i++)); do
    case "${load_args[i]}" in
      --connections | --threads) mem_args+=("${load_args[i]}" "${load_args[i + 1]:-}"); i=$((i + 1)) ;;
    esac
  done
  timeout $((memory_seconds + 120)) "$serve_load" ${mem_args[@]+"${mem_args[@]}"} \
    --workloads handler-new --requests "$memory_tasks" --seconds "$memory_seconds" --warmup 0 \
    --json "$out/memory.jsonl" "$name=$agent_url" >>"$out/memory-serve-load.txt" || failed=1
  rss_after="$(awk '/^VmRSS:/ {print $2}' "/proc/$agent_pid/status")"
  hwm="$(awk '/^VmHWM:/ {print $2}' "/proc/$agent_pid/status")"
  case "$store" in
    sqlite:*) size="$(cat "${store#sqlite:}"* | wc -c)" ;;
    postgres:*) size="$(pg_size "${store#postgres:}")" ;;
    *) size="" ;;
  esac
  printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$rss_idle" "$rss_after" "$hwm" "$size" >>"$out/memory.tsv"
  stop "$agent_pid"
  say "$name: RSS $((rss_idle / 1024)) MiB at start, $((rss_after / 1024)) MiB after"
done

"$python" - "$out/load.jsonl" "$out/memory.jsonl" "$out/memory.tsv" "$memory_tasks" <<'EOF' || failed=1
import json, sys
load = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
mem = {r['label']: r for r in (json.loads(l) for l in open(sys.argv[2]) if l.strip())}
tsv = [l.rstrip('\n').split('\t') for l in open(sys.argv[3]) if l.strip()]
want = int(sys.argv[4])
# rust-STORE against the SDK's STORE; postgres against our sqlite.
PAIRS = [('rust-memory', 'sdk-memory'), ('rust-sqlite', 'sdk-sqlite'),
         ('rust-sqlite', 'sdk-sqlite-wal'), ('rust-sqlite-normal', 'sdk-sqlite-wal'),
         ('rust-sqlite', 'rust-sqlite-normal'), ('rust-postgres', 'rust-sqlite'),
         ('rust-memory', 'before-memory'), ('rust-sqlite', 'before-sqlite'),
         ('rust-postgres', 'before-postgres')]

def ms(v):
    return '-' if v is None else f'{v:.0f} ms' if v >= 100 else f'{v:.1f} ms' if v >= 10 else f'{v:.2f} ms'

def ratio(a, b):
    if not a or not b:
        return '-'
    r = a / b
    return f'{r:.0f}x' if r >= 100 else f'{r:.2f}x' if r >= 1 else f'{r:.3f}x'

def mib(kb):
    return f'{int(kb) / 1024:.0f} MiB' if kb else '-'

print('\nrequest handler and stores: SendMessage over JSON-RPC, '
      f"{load[0]['connections'] if load else '-'} connections")
for workload in ('handler-new', 'handler-existing'):
    rows = {r['label']: r for r in load if r['workload'] == workload}
    print(f'\n  {workload}')
    print(f"    {'agent':<14} {'ok':>7} {'failed':>6} {'req/s':>9} {'p50':>9} {'p99':>9}")
    for r in rows.values():
        print(f"    {r['label']:<14} {r['ok']:>7} {r['failed']:>6} {r['rps']:>9.1f} "
              f"{ms(r['p50_ms']):>9} {ms(r['p99_ms']):>9}")
    for a, b in PAIRS:
        if a in rows and b in rows:
            x, y = rows[a], rows[b]
            print(f"    {a}/{b}: req/s {ratio(x['rps'], y['rps'])}, p50 {ratio(x['p50_ms'], y['p50_ms'])}, "
                  f"p99 {ratio(x['p99_ms'], y['p99_ms'])}")
    if workload == 'handler-existing':
        for r in rows.values():
            if r.get('waiting_tasks') is not None:
                print(f"    ({r['label']}: {r['waiting_tasks']} waiting tasks made in {r['setup_seconds']:.1f} s, "
                      f"each continued at most {r['most_continued']} times)")

print(f'\n  memory after {want} new tasks (handler-new, count-bound, no warm-up; the agent process only)')
print(f"    {'agent':<14} {'tasks':>7} {'seconds':>8} {'tasks/s':>8} {'RSS start':>10} {'RSS after':>10} "
      f"{'per task':>9} {'peak':>9} {'store on disk':>14}")
rss = {}
for name, idle, after, hwm, size in tsv:
    r = mem.get(name, {})
    ok = r.get('ok', 0)
    rss[name] = int(after)
    cut = '' if ok + r.get('failed', 0) >= want else '  (time bound: cut short)'
    disk = f'{int(size) / 2**20:.1f} MiB' if size else '-'
    per_task = f'{(int(after) - int(idle)) / ok:.2f} KiB' if ok else '-'
    print(f"    {name:<14} {ok:>7} {r.get('seconds', 0):>8.1f} {r.get('rps', 0):>8.1f} {mib(idle):>10} "
          f"{mib(after):>10} {per_task:>9} {mib(hwm):>9} {disk:>14}{cut}")
for a, b in PAIRS:
    if a in rss and b in rss:
        print(f'    RSS after, {a}/{b}: {ratio(rss[a], rss[b])}')
bad = [r for r in load + list(mem.values()) if r['failed']]
for r in bad:
    print(f"  FAILURES {r['label']} {r['workload']}: {r['failed']}")
    for reason, n in r['failures'].items():
        print(f'    {n:>7} x {reason}')
sys.exit(1 if bad else 0)
EOF

if ((failed)); then
  say "FAILED: some requests failed or a run did not finish (logs in ${out#"$root"/})"
  exit 1
fi
say "done: every reply checked and good (JSON lines in ${out#"$root"/})"
