#!/usr/bin/env bash
# Differential test of reply decoding: every reply the official Python SDK's client (a2a-sdk
# 1.3.0) accepts, a2a-types must accept too, unless allow.toml says why not.
#
# Builds the `classify` example once, gets the SDK's virtualenv from tests/interop/venv.sh, and
# runs py/replies.py: it makes the cases (base bodies, the SDK's captured replies and their
# mutations; for REST also error bodies and stream variants, py/rest.py), runs them all through
# the SDK's JSON-RPC and REST transports in one Python process and through a2a-types in one
# classify run per protocol version and binding, and compares. Files it writes (the
# case lists it gave classify, report.json with every outcome) stay in target/differential/.
#
#   tests/differential/run.sh                     # from anywhere in the checkout
#   tests/differential/run.sh --version v0_3      # one version (v1, v0_3 or v1_rest: v1 over REST)
#
# The captured replies are read in place from $A2A_SHARED_DIR or ../shared beside the checkout;
# without them it says SKIPPED and runs the rest, except under CI, where it fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

target="${CARGO_TARGET_DIR:-$root/target}"
say() { printf 'differential: %s\n' "$*"; }

say "building the classify example"
# --workspace --tests: the features of the README's test build, whose artifacts this reuses (see .ci/run).
cargo build -q --locked --workspace --tests --example classify
classify="$target/debug/examples/classify"

venv="$("$root/tests/interop/venv.sh")"
python="$venv/bin/python"
say "$("$python" -c 'import importlib.metadata as m; print("a2a-sdk", m.version("a2a-sdk"), "with protobuf", m.version("protobuf"), "and pydantic", m.version("pydantic"))')"

shared="${A2A_SHARED_DIR:-$root/../shared}"
exec "$python" "$here/py/replies.py" --classify "$classify" --out "$target/differential" \
  --shared "$shared" "$@"
