#!/usr/bin/env bash
# The whole test suite, from a fresh machine: the README's test command.
#
# Installs what the tests need when it is missing, then runs formatting,
# lints and every test of the workspace (the GNU Go 2.6 conformance tests
# included when ../shared/conformance is present, as it is in CI).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '\n== %s\n' "$*"; }

# Toolchain components used below; rustup is how this machine's Rust came.
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  say "installing rustfmt and clippy"
  rustup component add rustfmt clippy
fi

# GNU Go 3.8, the real peer of tests/gnugo_games.rs (Debian's `gnugo`).
if [ ! -x /usr/games/gnugo ]; then
  say "installing gnugo"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update && apt-get install -y gnugo
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update && sudo apt-get install -y gnugo
  else
    echo "note: cannot install gnugo (not root, no sudo): tests/gnugo_games.rs will fail"
  fi
fi

# Headless Chromium and its WebDriver, for the pattern catalogue's browser
# tests (tests/site_browser.rs fails, saying so, without them).
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  say "installing chromium and chromium-driver"
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
  elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y chromium chromium-driver
  else
    echo "note: cannot install chromium (not root, no sudo): tests/site_browser.rs will fail"
  fi
fi

features=""
if [ -f ../shared/conformance/gnugo-2.6/patterns.db ]; then
  features="--features gnugo26"
else
  echo "note: ../shared/conformance is absent: the GNU Go 2.6 conformance tests will say so and be skipped"
fi

say "cargo fmt --check"
cargo fmt --all -- --check

say "cargo clippy -D warnings"
cargo clippy --workspace --all-targets $features -- -D warnings

say "cargo test"
# CI=true keeps insta from writing snapshots: a changed snapshot fails.
CI=true cargo test --workspace $features
