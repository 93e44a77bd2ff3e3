#!/usr/bin/env bash
# Installs Debian packages non-interactively, through sudo unless already root. Shared by the
# ensure-*.sh scripts: `scripts/apt-install.sh <package>…`.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 <package>..." >&2
  exit 2
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "$@"
