# What the load benches' scripts share (sourced; they set `root`, `say` and START_TIMEOUT).

# wait_for NAME PID LOG PROBE...: runs PROBE every 0.1 s until it prints something (an agent's
# URL or port, once it listens) and sets `found` to that. Fails, printing LOG, when PID exits
# or START_TIMEOUT seconds pass first.
wait_for() {
  local name="$1" pid="$2" log="$3" waited=0
  shift 3
  found=""
  while [[ -z "$found" ]]; do
    found="$("$@")"
    [[ -n "$found" ]] && break
    if ! kill -0 "$pid" 2>/dev/null || ((waited >= START_TIMEOUT * 10)); then
      say "$name did not start listening (log ${log#"$root"/}):" >&2
      cat "$log" >&2
      return 1
    fi
    sleep 0.1
    waited=$((waited + 1))
  done
}

# tck_url LOG: the URL tck-agent says it serves ("tck-agent: serving http://127.0.0.1:PORT with
# ..."), or nothing yet (the log may not exist: the agent's shell opens it).
tck_url() { sed -n 's/^tck-agent: serving \(http:[^ ]*\) .*/\1/p' "$1" 2>/dev/null || true; }

# port_of FILE: the port an agent wrote to FILE, or nothing yet.
port_of() { [[ -s "$1" ]] && cat "$1" || true; }
