# Operations: what metrics and JSON access logs cost (see docs/performance.md).
.PHONY: bench-telemetry

bench-telemetry: $(VENV)/.stamp-test
	$(BIN)/python bench/perf/telemetry.py
