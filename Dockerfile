# Container image for gongzhu-service (docs/deployment.md).
#
# Two stages on the same base: `build` turns the project and its dependencies
# into wheels and installs them into /opt/venv; `runtime` gets only that venv,
# so no compiler, pip, wheel or cache reaches the final image. The build stage
# compiles the rules engine with mypyc (setup.py) when it has a C compiler (gcc
# from apt when the network allows); without one the engine is the pure Python
# build. The build prints which; /version's `engine` says it at run time.
#
#   docker build --build-arg VERSION=0.1.0 --build-arg REVISION=$(git rev-parse HEAD) \
#                -t gongzhu-service:0.1.0 .                  # official slim Python
#   docker build --build-arg BASE_IMAGE=local/debian-python \
#                --build-arg PIP_OFFLINE=1 --network=none .  # no registry reachable
#
# VERSION (pyproject.toml's), REVISION (the git commit) and SOURCE (the repository's
# URL) become the OCI labels; REVISION is also written into the wheel, so /version,
# `gongzhu-service --version` and gongzhu_build_info name the commit.
#
# BASE_IMAGE must provide `python3` with the venv module (Debian: python3-venv)
# plus `groupadd`/`useradd`; deploy/base-image.sh builds such a base locally. The
# default is pinned by digest (the multi-platform index of the tag): a rebuild gets
# the same base bytes until the digest is changed here on purpose; how to update it
# is in docs/deployment.md ("Updating the base image").
ARG BASE_IMAGE=python:3.12-slim-bookworm@sha256:782412e85d0f0984994c290652577d4018aff08145c85b262bb63dc0c7522254

FROM ${BASE_IMAGE} AS build
# 1: install only from deploy/wheelhouse/ (filled by deploy/docker-smoke.sh);
# 0: use the package index, with deploy/wheelhouse/ as an extra source.
ARG PIP_OFFLINE=0
ARG REVISION=""
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_ROOT_USER_ACTION=ignore
WORKDIR /src
# A throwaway venv holds the build tools (pip), the runtime venv gets none.
RUN python3 -m venv /opt/build-venv
# The C compiler for the compiled engine (this stage only; nothing it builds reaches the runtime stage).
# Debian's gcc of the base's release, whichever version that is: the compiler's version changes no answer.
# hadolint ignore=DL3008
RUN if ! command -v cc >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then \
        { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
              gcc libc6-dev && rm -rf /var/lib/apt/lists/*; } >/dev/null 2>&1 \
        || echo "no C compiler reachable: the engine is built pure"; \
    fi
COPY deploy/wheelhouse/ /wheelhouse/
COPY pyproject.toml setup.py README.md LICENSE ./
COPY service/ service/
# Wheels for the project with its server extra and every dependency, then install
# exactly those. setup.py writes GONGZHU_COMMIT into the project's wheel.
RUN set -eu; \
    index_args=""; \
    if [ "$PIP_OFFLINE" = 1 ]; then index_args="--no-index"; fi; \
    GONGZHU_COMMIT="$REVISION" /opt/build-venv/bin/pip wheel $index_args --find-links /wheelhouse \
        --wheel-dir /wheels ".[server]" ; \
    python3 -m venv --without-pip /opt/venv; \
    /opt/build-venv/bin/pip --python /opt/venv/bin/python install \
        --no-index --find-links /wheels --no-deps /wheels/*.whl; \
    /opt/venv/bin/python -c "import gongzhu.server.wsgi, gongzhu.server.gunicorn_conf, gongzhu.rules as r; print('engine', r.engine_build())"

FROM ${BASE_IMAGE} AS runtime
ARG VERSION=""
ARG REVISION=""
ARG SOURCE=""
LABEL org.opencontainers.image.title="gongzhu-service" \
      org.opencontainers.image.description="Stateless REST API for the card game Gong Zhu" \
      org.opencontainers.image.licenses="MIT" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}"
# Fixed numeric UID/GID so Kubernetes can check runAsNonRoot without a passwd lookup.
ARG APP_UID=10001
RUN groupadd --system --gid "${APP_UID}" app \
 && useradd --system --uid "${APP_UID}" --gid app --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin app
# nginx in front of gunicorn (`gongzhu-service serve`, docs/deployment.md "Serving model") and tini as
# PID 1 (it reaps orphans and passes signals on, "Supervision"): Debian's nginx-light and tini, already in
# a base built by deploy/base-image.sh, else from the base's apt. nginx's own service files are never
# used: serve writes its configuration into a run directory.
# hadolint ignore=DL3008
RUN if ! command -v nginx >/dev/null 2>&1 || ! command -v tini >/dev/null 2>&1; then \
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
            nginx-light tini && rm -rf /var/lib/apt/lists/*; \
    fi \
 && nginx -v && tini --version
COPY --from=build /opt/venv /opt/venv
# Bytecode was compiled at install time; the root filesystem is read-only in Kubernetes.
# HOST: every interface of the container (the server alone listens on loopback by default).
# MALLOC_*: glibc's allocator returns large request buffers to the system (gongzhu.cli's MALLOC_ENV); read
# when a process starts, so set here for every process of the container.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    HOST=0.0.0.0 \
    PORT=8080 \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=65536
USER ${APP_UID}:${APP_UID}
EXPOSE 8080
# No curl in the image: the venv's Python asks /healthz itself.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["python3", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ.get('PORT', '8080'), timeout=2)"]
# tini is PID 1: it reaps every orphan of the container (a search process whose worker was killed, what
# `docker exec` leaves) and passes SIGTERM to serve, which stops within GONGZHU_STOP_SECONDS.
ENTRYPOINT ["/usr/bin/tini", "--"]
# gongzhu-service serve: nginx on PORT in front of gunicorn's gthread workers on a unix socket, as make run.
CMD ["gongzhu-service", "serve"]
