# Release artefacts: `make dist` builds each into dist/ and checks it; .github/workflows/release.yml
# publishes them (docs/deployment.md, "Releases"). Each wheel is built from the sdist, as a user's pip
# builds it, with the commit written in (setup.py):
#   gongzhu_service-<v>.tar.gz                 the sdist
#   gongzhu_service-<v>-cp3xx-…whl             the compiled wheel for this Python (mypyc)
#   gongzhu_service-<v>-py3-none-any.whl       the pure wheel (GONGZHU_PURE=1): installs anywhere, no compiler
#   gongzhu_client-<v>-py3-none-any.whl, gongzhu-client-<v>.tgz   the SDKs (sdk/build.py)
#   gongzhu-service-<chart version>.tgz        the Helm chart (helm package)
# Checks: twine check --strict, npm pack --dry-run, helm lint --strict, actionlint on the workflows.
.PHONY: dist dist-dir dist-sdist dist-wheel dist-pure dist-sdk dist-chart dist-check

DIST := dist
DIST_SDK := build/dist-sdk
COMMIT_ENV = GONGZHU_COMMIT=$$(git rev-parse HEAD 2>/dev/null)
SDIST = $(firstword $(wildcard $(DIST)/gongzhu_service-*.tar.gz))
WHEEL_FROM_SDIST = $(BIN)/python -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation \
	--wheel-dir $(DIST)

$(VENV)/.stamp-dist-packages: pyproject.toml $(VENV)/.stamp-build
	$(INSTALL) dist
	touch $@

dist-dir:
	rm -rf $(DIST) && mkdir -p $(DIST)

# -P: the repository's build/ folder is no module `build` to shadow the frontend.
dist-sdist: dist-dir $(VENV)/.stamp-dist-packages
	$(BIN)/python -P -m build --no-isolation --sdist --outdir $(DIST) .

dist-wheel: dist-sdist
	$(COMMIT_ENV) $(WHEEL_FROM_SDIST) $(SDIST)

dist-pure: dist-sdist
	$(COMMIT_ENV) GONGZHU_PURE=1 $(WHEEL_FROM_SDIST) $(SDIST)

dist-sdk: dist-dir $(VENV)/.stamp-test $(NODE_TOOLS)/node_modules/.stamp
	$(BIN)/python sdk/build.py --out $(DIST_SDK)
	cp $(DIST_SDK)/dist/* $(DIST)/

dist-chart: dist-dir
	bash deploy/tools.sh
	. .tools/tools.env && "$$HELM" lint --strict helm/gongzhu-service && "$$HELM" package helm/gongzhu-service -d $(DIST)

DIST_CHECK = $(BIN)/twine check --strict $(DIST)/*.whl $(DIST)/*.tar.gz \
	&& (cd $(DIST_SDK)/typescript && npm pack --dry-run --silent) \
	&& $(BIN)/actionlint .github/workflows/*.yml && $(BIN)/python mk/check_dist.py $(DIST) && ls -1 $(DIST)

dist-check: $(VENV)/.stamp-dist-packages
	$(DIST_CHECK)

dist: dist-wheel dist-pure dist-sdk dist-chart
	$(DIST_CHECK)
