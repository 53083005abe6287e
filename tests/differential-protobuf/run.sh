#!/usr/bin/env bash
# The protobuf differential: every binary message a2a-sdk 1.3.0's own protobuf classes
# (a2a.types.a2a_pb2, on the Python protobuf runtime) accept, a2a-types' generated protobuf
# decoder must accept too, and decode to the same value. See README.md.
#
# Builds the classify_protobuf example once, gets the SDK's virtualenv from tests/interop/venv.sh
# and runs differential.py: it serializes the seeds (the captured results and params, and
# hand-built messages) with the SDK's classes, mutates their bytes, reads every case with both
# decoders and compares. Its files (cases.jsonl, report.json with every outcome) stay in
# target/differential-protobuf/.
#
#   tests/differential-protobuf/run.sh     # from anywhere in the checkout; a few seconds once built
#
# The captures are read in place from $A2A_SHARED_DIR or ../shared beside the checkout; without
# them it says SKIPPED and exits 0, except under CI, where it fails.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

target="${CARGO_TARGET_DIR:-$root/target}"
say() { printf 'differential-protobuf: %s\n' "$*"; }

shared="${A2A_SHARED_DIR:-$root/../shared}"
if [[ ! -d "$shared/wire-captures/a2a-sdk-1.3.0" ]]; then
  if [[ -n "${CI:-}" ]]; then
    say "FAILED: no captured SDK messages at $shared/wire-captures/a2a-sdk-1.3.0; CI must run with them (lay shared/ beside the checkout or set A2A_SHARED_DIR)"
    exit 2
  fi
  echo "SKIPPED differential-protobuf: no folder $shared/wire-captures/a2a-sdk-1.3.0 (set A2A_SHARED_DIR)"
  exit 0
fi

say "building the classify_protobuf example"
# --workspace --tests: the features of the README's test build, whose artifacts this reuses (see .ci/run).
cargo build -q --locked --workspace --tests --example classify_protobuf

venv="$("$root/tests/interop/venv.sh")"
python="$venv/bin/python"
say "$("$python" -c 'import importlib.metadata as m; from google.protobuf.internal import api_implementation as a; print("a2a-sdk", m.version("a2a-sdk"), "with protobuf", m.version("protobuf"), "(" + a.Type() + ")")')"

# The driver imports its sibling modules; keep the source tree free of bytecode.
export PYTHONDONTWRITEBYTECODE=1
cd "$here"
exec "$python" differential.py --classify "$target/debug/examples/classify_protobuf" \
  --out "$target/differential-protobuf" --shared "$shared"
