#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Provisions the headless browser that site-build's browser test
# (crates/proof/site-build/tests/browser.rs) drives: Debian's `chromium`
# and its WebDriver server `chromium-driver` (`chromedriver`),
# installed with apt when either command is missing. Needs root for that; a
# machine that already has both needs nothing.
#
# Idempotent: when both commands are on PATH it returns at once, having
# installed nothing. `apt-get update` runs only when an install fails, since
# a stale package list is the usual reason and updating costs seconds.
#
# Usage: ci/provision-browser.sh
set -euo pipefail

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "error: ${missing[*]} missing; run as root: sudo ci/provision-browser.sh" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
install() {
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
if ! install 2>/dev/null; then
  apt-get update -qq >/dev/null
  install
fi
