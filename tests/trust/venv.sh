#!/usr/bin/env bash
# Makes (or reuses) the virtualenv with a2a-sdk[signing] 1.3.0 that tests/trust/run.sh uses, and
# prints its directory on stdout. The approach of tests/interop/venv.sh: every package pinned
# (tests/interop/requirements.txt, plus PyJWT in requirements.txt here), the venv rebuilt when
# either file changes (their hash is kept in the venv as a stamp).
#
# Where: $A2A_TRUST_VENV, or target/trust-venv in the checkout (cargo clean removes it).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
venv="${A2A_TRUST_VENV:-$root/target/trust-venv}"
python="${PYTHON:-python3}"
want="$(cat "$here/requirements.txt" "$root/tests/interop/requirements.txt" | sha256sum | cut -d' ' -f1)"
if [[ -x "$venv/bin/python" && -f "$venv/.requirements.sha256" && "$(cat "$venv/.requirements.sha256")" == "$want" ]]; then
  echo "$venv"
  exit 0
fi
echo "venv.sh: installing a2a-sdk[signing] 1.3.0 into $venv" >&2
rm -rf "$venv"
"$python" -m venv "$venv" >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt" >&2
"$venv/bin/python" -c 'import jwt, a2a.utils.signing, importlib.metadata as m; assert m.version("a2a-sdk") == "1.3.0", m.version("a2a-sdk")' >&2
echo "$want" > "$venv/.requirements.sha256"
echo "$venv"
