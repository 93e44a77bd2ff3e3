#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (server/test/room/) when it is missing.
# The tests drive it with playwright-core at /usr/bin/chromium and skip themselves without it.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
  exit 0
fi

"$(dirname "$0")/apt-install.sh" chromium
command -v chromium
