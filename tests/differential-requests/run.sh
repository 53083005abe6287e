#!/usr/bin/env bash
# The request differential: every request case of cases.py through a2a-sdk 1.3.0's JSON-RPC server
# (in process, no network) and through a2a-types' generated decode_request (the classify_request
# example); fails on a request the SDK accepts and we refuse (unless allow.toml says why), and on a
# `requires` entry of spec/*/methods.toml that the SDK's behaviour contradicts. See README.md.
#
#   tests/differential-requests/run.sh   # from anywhere in the checkout; a few seconds once built
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

target="${CARGO_TARGET_DIR:-$root/target}"
work="$target/differential-requests"
mkdir -p "$work"

echo "differential-requests: building the classify_request example"
# --workspace --tests: the features of the README's test build, whose artifacts this reuses (see .ci/run).
cargo build --locked -q --workspace --tests --example classify_request

venv="$("$root/tests/interop/venv.sh")"
python="$venv/bin/python"
version="$("$python" -c 'import importlib.metadata as m; print(m.version("a2a-sdk"))')"
echo "differential-requests: a2a-sdk $version"

# The driver imports its sibling modules; keep the source tree free of bytecode.
export PYTHONDONTWRITEBYTECODE=1
cd "$here"
"$python" differential.py "$target/debug/examples/classify_request" "$work"
