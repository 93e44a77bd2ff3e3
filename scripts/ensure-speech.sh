#!/usr/bin/env bash
# Installs the offline speech recogniser (Debian's PocketSphinx, its US English model and its
# Python binding) when it is missing. Optional for `npm start`: without it the room falls back to
# the browser's own recognition or typing. CI installs it so the voice tests run.
set -euo pipefail

if /usr/bin/python3 -c 'import pocketsphinx' >/dev/null 2>&1 && [ -d /usr/share/pocketsphinx/model/en-us ]; then
  exit 0
fi

"$(dirname "$0")/apt-install.sh" python3-pocketsphinx pocketsphinx-en-us
