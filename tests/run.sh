#!/usr/bin/env bash
# The whole test suite, from a fresh machine: the README's test command.
#
# Installs what the tests need when it is missing, then runs formatting,
# lints, rustdoc with warnings denied and every test of the workspace
# (the GNU Go 2.6 and 3.8 conformance tests included when
# ../shared/conformance is present, as it is in CI).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\n== %s\n' "$*"; }

# Toolchain components used below; rustup is how this machine's Rust came.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  say "installing rustfmt and clippy"
  rustup component add rustfmt clippy
fi

# Debian packages the tests drive: GNU Go 3.8, the real peer of
# tests/gnugo_games.rs, headless Chromium with its WebDriver for the
# catalogue's browser tests (each test fails, saying so, without them),
# and tmux, the terminal tests/play_tmux.rs plays `katachi play` in.
# Debian's Pente, the opponent of tests/pente_games.rs.
missing=()
[ -x /usr/games/gnugo ] || missing+=(gnugo)
command -v tmux >/dev/null 2>&1 || missing+=(tmux)
[ -x /usr/games/pente ] || missing+=(pente)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  sudo_=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo_=sudo; else
      echo "error: ${missing[*]} missing and neither root nor sudo to install them" >&2
      exit 1
    fi
  fi
  $sudo_ apt-get update
  $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi

features=""
if [ -f ../shared/conformance/gnugo-2.6/patterns.db ]; then
  features="--features gnugo26"
else
  echo "note: ../shared/conformance is absent: the GNU Go 2.6 conformance tests will say so and be skipped"
fi
if [ -f ../shared/conformance/gnugo-3.8/patterns.db ]; then
  if [ -n "$features" ]; then features="$features,gnugo38"; else features="--features gnugo38"; fi
else
  echo "note: ../shared/conformance/gnugo-3.8 is absent: the GNU Go 3.8 conformance tests will say so and be skipped"
fi

# The downstream crate (tests/downstream: an engine outside the workspace,
# depending on katachi and mkpat as an outsider does) builds in a target
# folder of its own, which tests/downstream_build.rs's copies share.
downstream=(--manifest-path tests/downstream/Cargo.toml)
in_downstream_target() { CARGO_TARGET_DIR="$PWD/target/downstream" "$@"; }

say "cargo fmt --check"
cargo fmt --all -- --check
cargo fmt "${downstream[@]}" -- --check

say "cargo clippy -D warnings"
cargo clippy --workspace --all-targets $features -- -D warnings
# The core and the engines alone, as an engine links them (no compiler);
# then with their tests, whose dev-dependency on mkpat turns its compiler
# on (so only the first run shows what an engine's build sees).
cargo clippy -p katachi -p mkpat --no-default-features -- -D warnings
cargo clippy -p katachi -p mkpat --no-default-features --all-targets -- -D warnings
in_downstream_target cargo clippy "${downstream[@]}" --all-targets -- -D warnings

say "cargo doc -D warnings"
# Broken intra-doc links and ambiguous names fail like a lint.
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace $features

say "packaging: cargo package (the published crates' metadata and files)"
# --no-verify: building the packaged crates again from scratch would double
# the build; a verified `cargo package --workspace` is in the README.
cargo package --workspace --no-verify --allow-dirty --quiet

say "the downstream crate: cargo test"
in_downstream_target cargo test "${downstream[@]}"

say "cargo test"
# CI=true keeps insta from writing snapshots: a changed snapshot fails.
CI=true cargo test --workspace $features
