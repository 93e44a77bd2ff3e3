#!/usr/bin/env bash
# Installs Debian's nginx and HAProxy for the load-balancer test (server/test/http/load-balancer.test.ts)
# when they are missing. The test runs nginx as an unprivileged foreground process on a loopback port
# with the committed deploy/nginx/understudy.conf, checks deploy/haproxy/understudy.cfg with
# `haproxy -c`, and skips what it cannot find.
set -euo pipefail

# Debian keeps nginx in /usr/sbin, which a non-root PATH may lack.
export PATH="$PATH:/usr/sbin:/sbin"

missing=()
command -v nginx >/dev/null 2>&1 || missing+=(nginx)
command -v haproxy >/dev/null 2>&1 || missing+=(haproxy)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

"$(dirname "$0")/apt-install.sh" "${missing[@]}"
# Installing the package starts the distribution's nginx/haproxy service where an init system runs
# (not in a container): the tests need neither, and their own processes listen on free ports.
command -v nginx
command -v haproxy
