#!/usr/bin/env bash
# Compile time of the code a2a-codegen generates for A2A v1 against typify 0.8's output for the
# same official v1 schema. Reports; asserts nothing.
#
#   bench/compile-time.sh            # RUNS=5 by default; RUNS=3 bench/compile-time.sh for less
#
# In a scratch workspace under <target dir>/compile-time/ (its own target directory, its
# Cargo.lock seeded from the repository's so the shared dependencies resolve to the same
# versions), three library crates:
#
#   ct-ours        the whole v1 module as a2a-codegen generates it from spec/v1 (types, errors,
#                  methods, server; without the schemars impls, which a2a-types keeps behind an
#                  off-by-default feature), using the runtime crate (`::a2a_runtime`), as a
#                  build.rs user's crate does
#   ct-ours-types  only the types module, from spec/v1/a2a.schema.json alone: the part typify's
#                  output corresponds to
#   ct-typify      typify 0.8's formatted output for the official v1.0.1 bundle (rewritten as the
#                  generation bench rewrites it, see bench/src/typify_side.rs), with the crates it
#                  names (serde, serde_json, regress, chrono)
#
# Generic code is compiled where it is used, so each crate also has a function that decodes and
# re-encodes (serde_json) every type both outputs define (the same list in all three crates).
#
# Every dependency (a2a-runtime included) is built first; then each crate's own
# build is timed, wall clock, RUNS times, in debug and release, with CARGO_INCREMENTAL=0:
# `touch src/lib.rs`, then `cargo build -p <crate>`. With hyperfine installed it does the timing (`--prepare` for the
# touch), otherwise a shell loop does. The official schema is read in place from ../shared (or
# $A2A_SHARED_DIR); without it the script says so and stops (and fails under CI).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
runs="${RUNS:-5}"

shared="${A2A_SHARED_DIR:-$root/../shared}"
schema="$shared/a2a-spec/v1.0/a2a.json"
if [[ ! -f "$schema" ]]; then
  if [[ -n "${CI:-}" ]]; then
    echo "compile-time.sh: the official schema is missing at $schema and CI is set" >&2
    exit 1
  fi
  echo "SKIPPED compile-time.sh: no official schema at $schema (set A2A_SHARED_DIR)"
  exit 0
fi

target="$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
scratch="$target/compile-time"
echo "==> scratch workspace $scratch" >&2
rm -rf "$scratch/ct-ours" "$scratch/ct-ours-types" "$scratch/ct-typify"
mkdir -p "$scratch/ct-ours/src" "$scratch/ct-ours-types/src" "$scratch/ct-typify/src"
[[ -f "$scratch/Cargo.lock" ]] || cp "$root/Cargo.lock" "$scratch/Cargo.lock"

cat >"$scratch/Cargo.toml" <<'EOF'
[workspace]
resolver = "2"
members = ["ct-ours", "ct-ours-types", "ct-typify"]
EOF

# The two crates of a2a-codegen's output depend on the runtime, as any build.rs user's crate does.
for crate in ct-ours ct-ours-types; do
  cat >"$scratch/$crate/Cargo.toml" <<EOF
[package]
name = "$crate"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
a2a-runtime = { path = "$root/a2a-runtime", default-features = false }
serde = "1"
serde_json = "1"
EOF
  printf '//! a2a-codegen output, for compile-time.sh.\npub mod roundtrip;\npub mod v1;\n' >"$scratch/$crate/src/lib.rs"
done

echo "==> generating (a2a-codegen, typify)" >&2
cargo build --release --quiet --locked -p a2a-codegen -p a2a-bench
"$target/release/a2a-codegen" generate --spec spec/v1 --out "$scratch/ct-ours/src/v1" >&2
"$target/release/a2a-codegen" generate --spec spec/v1/a2a.schema.json --out "$scratch/ct-ours-types/src/v1" >&2
typify_out="$("$target/release/a2a-bench" typify "$schema" "$scratch/ct-typify/src/typify_v1.rs")"
echo "$typify_out" >&2
uses="$(sed -n 's/^uses\t//p' <<<"$typify_out")"

{
  cat <<'EOF'
[package]
name = "ct-typify"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
serde = { version = "1", features = ["derive"] }
EOF
  for dep in $uses; do
    case "$dep" in
      serde_json) echo 'serde_json = "1"' ;;
      regress) echo 'regress = "0.12"' ;; # the version typify 0.8 itself uses
      chrono) echo 'chrono = { version = "0.4", features = ["serde"] }' ;;
      uuid) echo 'uuid = { version = "1", features = ["serde"] }' ;;
      *) echo "compile-time.sh: typify's output uses $dep, which this script does not know" >&2; exit 1 ;;
    esac
  done
} >"$scratch/ct-typify/Cargo.toml"

# Generic code (every `Deserialize` and `Serialize` impl) is compiled where it is used, not where
# it is defined, so each crate also decodes and re-encodes, with serde_json, every type that both
# outputs define: what a crate using the types pays for them.
names() { grep -ohE '^pub (struct|enum) [A-Z][A-Za-z0-9]*' "$@" | cut -d' ' -f3 | sort -u; }
common="$(comm -12 <(names "$scratch"/ct-ours-types/src/v1/*.rs) <(names "$scratch/ct-typify/src/typify_v1.rs"))"
{
  echo "//! Decodes and re-encodes each of the $(wc -w <<<"$common") types both outputs define."
  echo "pub fn roundtrip(json: &[u8]) -> usize {"
  echo "    let mut n = 0;"
  for name in $common; do
    echo "    n += serde_json::from_slice::<crate::v1::$name>(json).ok().and_then(|v| serde_json::to_vec(&v).ok()).map_or(0, |b| b.len());"
  done
  echo "    n"
  echo "}"
} >"$scratch/ct-ours/src/roundtrip.rs"
cp "$scratch/ct-ours/src/roundtrip.rs" "$scratch/ct-ours-types/src/roundtrip.rs"
cp "$scratch/ct-ours/src/roundtrip.rs" "$scratch/ct-typify/src/roundtrip.rs"
printf '//! typify 0.8 output, for compile-time.sh.\npub mod roundtrip;\npub mod v1 {\n    include!("typify_v1.rs");\n}\n' >"$scratch/ct-typify/src/lib.rs"

lines() { cat "$@" | wc -l; }
declare -A loc=(
  [ct-ours]="$(lines "$scratch"/ct-ours/src/v1/*.rs)"
  [ct-ours-types]="$(lines "$scratch"/ct-ours-types/src/v1/*.rs)"
  [ct-typify]="$(lines "$scratch/ct-typify/src/typify_v1.rs")"
)

cd "$scratch"
# Whole-crate builds in debug too: with incremental compilation a touched but unchanged crate
# would reuse its previous build.
export CARGO_INCREMENTAL=0
echo "==> building every dependency (debug and release), untimed" >&2
cargo build --quiet --workspace >&2
cargo build --quiet --workspace --release >&2

# Prints "mean sd min max" (seconds) of RUNS builds of crate $1 with cargo flags $2.
time_build() {
  local crate="$1" flags="$2" json="$scratch/$1${2// /}.json"
  if command -v hyperfine >/dev/null; then
    hyperfine --style basic --runs "$runs" --prepare "touch $crate/src/lib.rs" \
      --export-json "$json" "cargo build --offline --quiet -p $crate $flags" >&2
    sed -n '/"times"/,/]/p' "$json" | tr -d ' "times:[],' | grep -v '^$'
  else
    for _ in $(seq "$runs"); do
      touch "$crate/src/lib.rs"
      local start end
      start="$(date +%s.%N)"
      cargo build --offline --quiet -p "$crate" $flags
      end="$(date +%s.%N)"
      awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f\n", e - s }'
    done
  fi | awk '{ x[NR] = $1; sum += $1; if (NR == 1 || $1 < min) min = $1; if ($1 > max) max = $1 }
    END { mean = sum / NR; for (i = 1; i <= NR; i++) ss += (x[i] - mean) ^ 2;
          printf "%.2f %.2f %.2f %.2f\n", mean, sqrt(ss / (NR > 1 ? NR - 1 : 1)), min, max }'
}

declare -A result
for profile in debug release; do
  flags=""
  [[ $profile == release ]] && flags="--release"
  for crate in ct-ours ct-ours-types ct-typify; do
    echo "==> timing $crate ($profile, $runs runs)" >&2
    result[$crate/$profile]="$(time_build "$crate" "$flags")"
  done
done

echo
echo "compile time of the final crate only (dependencies prebuilt), wall clock, $runs runs, $(nproc) cores, $(rustc --version):"
printf '%-14s %7s  %-30s %-30s\n' crate lines "debug: mean ± sd (min-max) s" "release: mean ± sd (min-max) s"
for crate in ct-ours ct-ours-types ct-typify; do
  row=("$crate" "${loc[$crate]}")
  for profile in debug release; do
    read -r mean sd min max <<<"${result[$crate/$profile]}"
    row+=("$mean ± $sd ($min-$max)")
  done
  printf '%-14s %7s  %-30s %-30s\n' "${row[@]}"
done
for profile in debug release; do
  typify="$(cut -d' ' -f1 <<<"${result[ct-typify/$profile]}")"
  for crate in ct-ours ct-ours-types; do
    ours="$(cut -d' ' -f1 <<<"${result[$crate/$profile]}")"
    awk -v c="$crate" -v p="$profile" -v o="$ours" -v t="$typify" \
      'BEGIN { printf "%s %s: %.2fx the build time of ct-typify\n", c, p, o / t }'
  done
done
