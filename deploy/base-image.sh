#!/usr/bin/env bash
# Build a local Debian base image with Python (python3 + python3-venv), nginx-light and tini from
# Debian's package archive with debootstrap, and `docker import` it, for machines
# that reach no container registry. Prints the image reference on stdout.
# The image is tagged with a hash of this script, so it is rebuilt only when the
# recipe changes (about a minute: debootstrap ~45 s, import ~10 s).
# Usage: deploy/base-image.sh   (needs root, debootstrap and a running Docker daemon)
# Environment: DEBIAN_SUITE (bookworm), DEBIAN_MIRROR (http://deb.debian.org/debian).
set -euo pipefail

suite=${DEBIAN_SUITE:-bookworm}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
recipe_hash=$(cat "${BASH_SOURCE[0]}" <(echo "$suite $mirror") | sha256sum | cut -c1-12)
image=gongzhu-local/debian-python:$suite-$recipe_hash

if docker image inspect "$image" >/dev/null 2>&1; then
    echo "$image"
    exit 0
fi

if ! command -v debootstrap >/dev/null; then
    echo "base-image: installing debootstrap" >&2
    apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null
fi

rootfs=$(mktemp -d /var/tmp/gongzhu-rootfs.XXXXXX)
trap 'rm -rf "$rootfs"' EXIT
echo "base-image: debootstrap $suite (minbase + python3, python3-venv, nginx-light, tini) from $mirror" >&2
debootstrap --variant=minbase --include=python3,python3-venv,nginx-light,tini "$suite" "$rootfs" "$mirror" \
    > "$rootfs.log" 2>&1 || { tail -20 "$rootfs.log" >&2; rm -f "$rootfs.log"; exit 1; }
rm -f "$rootfs.log"

# Slim it like the official slim images: no package caches or lists, no docs,
# man pages or translations; the image is a base, not a place to install from.
rm -rf "$rootfs"/var/cache/apt/* "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/log/* \
       "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* \
       "$rootfs"/usr/share/locale/* "$rootfs"/tmp/* "$rootfs"/root/.cache

echo "base-image: importing as $image" >&2
tar --numeric-owner -C "$rootfs" -c . | docker import \
    --change 'ENV LANG=C.UTF-8' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["python3"]' \
    --message "debootstrap $suite minbase + python3 python3-venv nginx-light tini" \
    - "$image" >/dev/null
# Older recipes' bases are no longer used.
docker image ls --format '{{.Repository}}:{{.Tag}}' "${image%%:*}" | grep -vxF "$image" \
    | xargs -r docker rmi >/dev/null 2>&1 || true
echo "$image"
