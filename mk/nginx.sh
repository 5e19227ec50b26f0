#!/bin/sh
# nginx for `gongzhu-service serve` (make run, make test): Debian's nginx-light, installed with apt-get when
# missing and running as root; anywhere else, one line that says what to install.
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends nginx-light \
      || { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx-light; }; } >/dev/null 2>&1
    # the package's own service may have started on port 80: serve runs its own nginx
    pkill -x nginx 2>/dev/null || true
    [ -x /usr/sbin/nginx ] && exit 0
fi
echo "gongzhu-service serve needs nginx: sudo apt-get install -y nginx-light (docs/deployment.md)" >&2
exit 1
