#!/usr/bin/env bash
# Makes (or reuses) the Python virtualenv with a2a-sdk 1.3.0 that the interop tests and the Python
# bench use, and prints its directory on stdout.
#
#   venv="$(tests/interop/venv.sh)"; "$venv/bin/python" ...
#
# Where: $A2A_INTEROP_VENV, or target/interop-venv in the checkout (cargo clean removes it).
# The venv is rebuilt when requirements.txt changes (its hash is kept in the venv as a stamp).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${A2A_INTEROP_VENV:-$root/target/interop-venv}"
python="${PYTHON:-python3}"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$venv/.requirements.sha256" && "$(cat "$venv/.requirements.sha256")" == "$want" ]]; then
  echo "$venv"
  exit 0
fi
echo "venv.sh: installing a2a-sdk 1.3.0 into $venv" >&2
rm -rf "$venv"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
"$venv/bin/python" -c 'import a2a, importlib.metadata as m; assert m.version("a2a-sdk") == "1.3.0", m.version("a2a-sdk")' >&2
echo "$want" > "$venv/.requirements.sha256"
echo "$venv"
