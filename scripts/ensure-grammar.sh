#!/usr/bin/env bash
# Installs CMU's link grammar parser for the persona evaluation's grammar check
# (scripts/grammar-check.py): Debian's Python 3 binding and its English dictionary, when they are
# missing. Optional: without it the evaluation prints no grammar figure. CI installs it.
set -euo pipefail

if /usr/bin/python3 -c 'import linkgrammar; linkgrammar.Dictionary("en")' >/dev/null 2>&1; then
  exit 0
fi

"$(dirname "$0")/apt-install.sh" python3-link-grammar link-grammar-dictionaries-en
/usr/bin/python3 -c 'import linkgrammar; linkgrammar.Dictionary("en")' >/dev/null
