#!/usr/bin/env bash
# Makes (or reuses) the Python virtualenv with a2a-sdk 1.3.0 that the interop tests and the Python
# bench use, and prints its directory on stdout. With `0.3`: the one with a2a-sdk 0.3.26, the
# real 0.3 client (requirements-v0.3.txt, in target/interop-venv-0.3).
#
#   venv="$(tests/interop/venv.sh)"; "$venv/bin/python" ...
#   venv03="$(tests/interop/venv.sh 0.3)"
#
# Where: $A2A_INTEROP_VENV, or target/interop-venv in the checkout (cargo clean removes it).
# The venv is rebuilt when its requirements file changes (its hash is kept in the venv as a stamp).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
requirements="$here/requirements.txt"
sdk=1.3.0
venv="${A2A_INTEROP_VENV:-$root/target/interop-venv}"
if [[ "${1:-}" == 0.3 ]]; then
  requirements="$here/requirements-v0.3.txt"
  sdk=0.3.26
  venv="$root/target/interop-venv-0.3"
fi
python="${PYTHON:-python3}"
want="$(sha256sum "$requirements" | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$venv/.requirements.sha256" && "$(cat "$venv/.requirements.sha256")" == "$want" ]]; then
  echo "$venv"
  exit 0
fi
echo "venv.sh: installing a2a-sdk $sdk into $venv" >&2
rm -rf "$venv"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
"$venv/bin/python" -c "import a2a, importlib.metadata as m; assert m.version('a2a-sdk') == '$sdk', m.version('a2a-sdk')" >&2
echo "$want" > "$venv/.requirements.sha256"
echo "$venv"
