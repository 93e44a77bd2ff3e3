#!/usr/bin/env bash
# Installs the offline speech recogniser (Debian's PocketSphinx, its US English model and its
# Python binding) when it is missing. Optional for `npm start`: without it the room falls back to
# the browser's own recognition or typing. CI installs it so the voice tests run.
#
# Also installs what the speech test set speaks with (docs/speech.md, "Speech test set"): festival
# with two diphone voices and an HTS voice, espeak-ng, sox, and PocketSphinx's own test recordings.
# They are for the tests and bench/voice only; the service never uses them.
set -euo pipefail

RECOGNISER=(python3-pocketsphinx pocketsphinx-en-us)
TEST_SET=(festival festvox-kallpc16k festvox-kdlpc16k festvox-us-slt-hts espeak-ng pocketsphinx-testdata sox)

missing=()
recogniser_missing=0
if ! /usr/bin/python3 -c 'import pocketsphinx' >/dev/null 2>&1 || [ ! -d /usr/share/pocketsphinx/model/en-us ]; then
  recogniser_missing=1
  missing+=("${RECOGNISER[@]}")
fi
# One dpkg-query for all of them; a package it does not know is left out of its output.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${TEST_SET[@]}" 2>/dev/null | awk '$2 == "ii" { print $1 }' || true)
for package in "${TEST_SET[@]}"; do
  grep -qx "$package" <<<"$installed" || missing+=("$package")
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

if ! "$(dirname "$0")/apt-install.sh" "${missing[@]}"; then
  # A voice the distribution lacks must not cost the recogniser: the tests skip a missing voice
  # (printing why), so only a recogniser that still cannot be installed fails the script.
  echo "ensure-speech: could not install all of: ${missing[*]}; the tests skip what is missing" >&2
  if [ "$recogniser_missing" -eq 1 ]; then
    "$(dirname "$0")/apt-install.sh" "${RECOGNISER[@]}"
  fi
fi
