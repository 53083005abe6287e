#!/usr/bin/env bash
# A throwaway PostgreSQL for a2a-agent's tests, on 127.0.0.1 only.
#
#   a2a-agent/tests/start-postgres.sh start DIR PORT   # prints the URL to export
#   a2a-agent/tests/start-postgres.sh stop DIR
#
#   export A2A_TEST_POSTGRES_URL="$(a2a-agent/tests/start-postgres.sh start target/pg 55432)"
#   cargo test -p a2a-agent --all-features
#   a2a-agent/tests/start-postgres.sh stop target/pg
#
# `start` initdb's a cluster in DIR/data (once), starts it on PORT (unless it already runs),
# creates the database `a2a_test` (unless it exists) and prints its URL, the only line on
# stdout; everything else goes to stderr, the server's log to DIR/data/postgres.log. Both commands
# are idempotent. Authentication is `trust`, for the loopback address only; there is no Unix
# socket. Run as root, the server runs as the user `postgres` (created when missing), since
# PostgreSQL refuses to run as root. The binaries are looked up on PATH, then under
# /usr/lib/postgresql/*/bin; when there are none, root installs Debian's `postgresql`.
set -euo pipefail

usage() {
  echo "usage: $0 start DIR PORT | stop DIR" >&2
  exit 2
}

cmd="${1:-}"
dir="${2:-}"
[[ -n "$cmd" && -n "$dir" ]] || usage
if [[ "$cmd" == stop && ! -d "$dir" ]]; then
  echo "no $dir: nothing to stop" >&2
  exit 0
fi
mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
db=a2a_test
superuser=a2a

find_bin_dir() {
  if command -v initdb >/dev/null && command -v pg_ctl >/dev/null; then
    dirname "$(command -v pg_ctl)"
    return
  fi
  local d
  for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [[ -x "$d/initdb" && -x "$d/pg_ctl" ]]; then
      echo "$d"
      return
    fi
  done
  return 1
}

if ! bin="$(find_bin_dir)"; then
  if [[ "$cmd" == stop ]]; then
    echo "no PostgreSQL binaries: nothing to stop" >&2
    exit 0
  fi
  if [[ "$(id -u)" -ne 0 ]]; then
    echo "no PostgreSQL binaries (initdb, pg_ctl) on PATH or under /usr/lib/postgresql; install PostgreSQL" >&2
    exit 1
  fi
  echo "no PostgreSQL binaries: installing Debian's postgresql" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
  bin="$(find_bin_dir)" || {
    echo "apt-get installed postgresql, but no initdb/pg_ctl was found" >&2
    exit 1
  }
fi

# Runs a PostgreSQL program as the cluster's owner.
if [[ "$(id -u)" -eq 0 ]]; then
  owner=postgres
  if ! id "$owner" >/dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$owner" >&2
  fi
  as_owner() { runuser -u "$owner" -- "$@"; }
else
  owner="$(id -un)"
  as_owner() { "$@"; }
fi

# The cluster lives in DIR/data, unless its owner cannot reach DIR (a checkout under a directory
# closed to other users, as /root is): then in /tmp, under a name derived from DIR, so that
# `stop DIR` finds it again.
if [[ "$(id -u)" -eq 0 && "$cmd" == start ]]; then
  chown "$owner" "$dir" 2>/dev/null || true
fi
if as_owner test -w "$dir" -a -x "$dir"; then
  data="$dir/data"
else
  data="/tmp/a2a-agent-pg-$(printf %s "$dir" | sha256sum | cut -c1-16)"
  echo "the user $owner cannot write $dir: the cluster is in $data" >&2
fi
log="$data/postgres.log"

running() { [[ -f "$data/PG_VERSION" ]] && as_owner "$bin/pg_ctl" status -D "$data" >/dev/null 2>&1; }

case "$cmd" in
  stop)
    if running; then
      as_owner "$bin/pg_ctl" stop -D "$data" -m fast -w >&2
    else
      echo "PostgreSQL in $data is not running" >&2
    fi
    ;;
  start)
    port="${3:-}"
    [[ "$port" =~ ^[0-9]+$ ]] || usage
    if [[ ! -f "$data/PG_VERSION" ]]; then
      if [[ -e "$data" ]]; then
        # Left by an initdb that did not finish; only ever a directory this script made.
        as_owner rm -rf "$data" 2>/dev/null || rm -rf "$data"
      fi
      as_owner "$bin/initdb" -D "$data" -U "$superuser" --auth=trust --encoding=UTF8 \
        --no-locale >&2
    fi
    if running; then
      # postmaster.pid's fourth line is the port it listens on.
      running_port="$(sed -n 4p "$data/postmaster.pid")"
      if [[ "$running_port" != "$port" ]]; then
        echo "PostgreSQL in $data already runs on port $running_port, not $port: stop it first ($0 stop $dir)" >&2
        exit 1
      fi
      echo "PostgreSQL in $data is already running on port $port" >&2
    else
      # listen_addresses: loopback only. unix_socket_directories empty: TCP only, so no
      # socket path under /var/run (owned by the package) or a long DIR is needed.
      as_owner "$bin/pg_ctl" start -D "$data" -l "$log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=''" >&2 || {
        echo "PostgreSQL did not start; its log, $log:" >&2
        tail -n 30 "$log" >&2 || true
        exit 1
      }
    fi
    psql=(psql -X -q -h 127.0.0.1 -p "$port" -U "$superuser")
    if [[ -x "$bin/psql" ]]; then psql[0]="$bin/psql"; fi
    for _ in $(seq 1 30); do
      if "${psql[@]}" -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; then break; fi
      sleep 1
    done
    if [[ "$("${psql[@]}" -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'")" != 1 ]]; then
      "${psql[@]}" -d postgres -c "CREATE DATABASE $db" >&2
    fi
    echo "postgres://$superuser@127.0.0.1:$port/$db"
    ;;
  *)
    usage
    ;;
esac
