# Deployment targets (issue 4); the main Makefile includes mk/*.mk.
#   make deploy-tools   install the pinned hadolint, kubernetes-validate and Helm into .tools/
#   make deploy-check   hadolint, helm lint, helm template + kubernetes-validate --strict
#   make docker-smoke   build the image and run it for real (prints its size and UID)
.PHONY: deploy-tools deploy-check docker-smoke

deploy-tools:
	bash deploy/tools.sh

deploy-check:
	bash deploy/check.sh

docker-smoke:
	bash deploy/docker-smoke.sh
