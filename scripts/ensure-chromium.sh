#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (server/test/room/) when it is missing.
# The tests drive it with playwright-core at /usr/bin/chromium and skip themselves without it.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends chromium
command -v chromium
