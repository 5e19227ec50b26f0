#!/bin/sh
# nginx for `gongzhu-service serve` (make run, make test): Debian's nginx-light, installed with apt-get when
# missing and running as root. Anywhere else it never fails: serve runs gunicorn alone when there is no nginx
# (docs/deployment.md, "Without nginx"), and this says how to put nginx in front. GONGZHU_NGINX, when set,
# names the nginx serve runs (or `off`): nothing is installed then.
if [ -n "${GONGZHU_NGINX:-}" ]; then
    [ "$GONGZHU_NGINX" = off ] || [ -x "$GONGZHU_NGINX" ] && exit 0
elif command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
    exit 0
elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends nginx-light \
      || { apt-get update -qq && apt-get install -y -qq --no-install-recommends nginx-light; }; } >/dev/null 2>&1
    # the package's own service may have started on port 80 with the package's configuration: stop that one
    # (its pid file), no other nginx; serve runs its own
    [ -x /usr/sbin/nginx ] && { /usr/sbin/nginx -s quit >/dev/null 2>&1 || true; exit 0; }
fi
echo "gongzhu-service serve: no nginx here, gunicorn will serve alone; to put nginx in front:" \
     "sudo apt-get install -y nginx-light (docs/deployment.md)" >&2
exit 0
