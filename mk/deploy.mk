# Deployment targets (docs/deployment.md); the main Makefile includes mk/*.mk.
#   make deploy-tools   install the pinned hadolint, kubernetes-validate and Helm into .tools/
#   make deploy-check   hadolint, helm lint, helm template + kubernetes-validate --strict
#   make docker-smoke   build the image and run it for real (prints its size and UID)
#   make docker-measure the smoke plus a 10 s loopback load per endpoint, for sizing
.PHONY: deploy-tools deploy-check docker-smoke docker-measure

deploy-tools:
	bash deploy/tools.sh

deploy-check:
	bash deploy/check.sh

docker-smoke:
	bash deploy/docker-smoke.sh

# The smoke plus a bounded loopback load (wrk) for resource sizing; see docs/deployment.md.
docker-measure:
	SMOKE_LOAD_SECONDS=10 bash deploy/docker-smoke.sh
