#!/usr/bin/env bash
# Builds the seed corpus of every fuzz target from the seed cases and the wire captures in
# ../shared (read where they are, never copied into the repository), plus a few bodies of our
# own. The corpus lands in fuzz/corpus/<target>/, which git ignores; libFuzzer adds what it finds.
set -euo pipefail
cd "$(dirname "$0")"
shared=${A2A_SHARED_DIR:-../../shared}
for t in unary sse request schema; do mkdir -p "corpus/$t"; done

n=0
add() { # target, selector byte (octal escape or empty), file
    n=$((n + 1))
    { printf "$2"; cat "$3"; } >"corpus/$1/seed-$n"
}
own=$(mktemp -d)
trap 'rm -rf "$own"' EXIT
printf '{"jsonrpc":"2.0","id":1,"result":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}' >"$own/ok.json"
printf '{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"m","data":[{"@type":"x"}]}}' >"$own/err.json"
printf 'data: {"result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{}}}}\r\n\r\n: c\n' >"$own/ev.sse"
printf '{"jsonrpc":"2.0","id":"r","method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}}}' >"$own/req.json"
printf '{"jsonrpc":"2.0","id":"r","method":"tasks/get","params":{"id":"t","historyLength":2}}' >"$own/req03.json"
add unary '\002' "$own/ok.json"
add unary '\004' "$own/err.json"
add sse '\011' "$own/ev.sse"
add request '' "$own/req.json"
add request '' "$own/req03.json"
add schema '' ../spec/v1/a2a.schema.json
add schema '' ../spec/v0_3/a2a.schema.json
for f in ../a2a-codegen/tests/fixtures/pass/*.schema.json ../a2a-codegen/tests/fixtures/fail/*.schema.json; do
    add schema '' "$f"
done

if [[ -d $shared/wire-captures ]]; then
    for f in "$shared"/wire-captures/*/*.response.json; do add unary '\002' "$f"; done
    for f in "$shared"/wire-captures/*/*.response.sse; do add sse '\005' "$f"; done
    for f in "$shared"/wire-captures/*/*.request.json; do add request '' "$f"; done
    add schema '' "$shared/a2a-spec/v1.0/a2a.json"
    add schema '' "$shared/a2a-spec/v0.3.0/a2a.json"
else
    echo "seed-corpus: no $shared/wire-captures; only our own seeds" >&2
fi
echo "seed corpus: $n files in $(pwd)/corpus"
