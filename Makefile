# MCP Playground build. GNU make. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

GO  ?= go
NPM ?= npm

BIN := bin/playground

# go-sqlite3 needs cgo; the race detector does too.
export CGO_ENABLED := 1
# go-sqlite3 compiles SQLite's FTS5 (history search) in only with this tag;
# without it the store refuses to open. Every go command below gets it.
export GOFLAGS += -tags=sqlite_fts5

# Browser tests look for Chromium here and skip without it; tests that start
# npm peers (server-everything, conformance, Node 22) look in node_modules.
ifeq ($(origin PLAYGROUND_CHROMIUM),undefined)
PLAYGROUND_CHROMIUM := $(shell command -v chromium || command -v chromium-browser)
endif
export PLAYGROUND_CHROMIUM
export PLAYGROUND_NODE_MODULES := $(CURDIR)/node_modules

# npm packages. The product needs only package.json's dependencies (htmx);
# the test peers (devDependencies: the reference servers server-everything,
# server-filesystem and server-memory, the conformance suite, the Inspector,
# Node 22) are for `make test` and `make bench`. Each install
# reruns only when the lock file is newer than its stamp, or when
# node_modules (and so the stamps inside it) is gone. A full install serves
# the product too, so the product install never undoes it.
NPM_STAMP      := node_modules/.installed-stamp
NPM_PROD_STAMP := node_modules/.product-stamp

# Third-party front-end files copied into static/vendor (embedded by static/).
VENDOR_DIR   := static/vendor
VENDOR_FILES := $(VENDOR_DIR)/htmx.min.js $(VENDOR_DIR)/ws.min.js

.PHONY: help assets peers generate check-generated build run test fuzz bench clean distclean

help:
	@echo 'make assets           npm ci --omit=dev (when needed) and copy htmx files into $(VENDOR_DIR)'
	@echo 'make peers            npm ci (when needed): the test peers too (reference servers, conformance, Inspector, Node 22)'
	@echo 'make generate         go tool templ generate'
	@echo 'make check-generated  fail if generated *_templ.go files are stale'
	@echo 'make build            assets, then build $(BIN) (default target)'
	@echo 'make run              build, then $(BIN) serve $$ARGS'
	@echo 'make test             peers, assets, check-generated, go vet, go test -race, then fuzz 20000 inputs each'
	@echo 'make fuzz             run each fuzz target (wire layer, protocol lint) for $$FUZZTIME (default 10s)'
	@echo 'make bench            every benchmark, then a table of figures and targets (bin/bench.jsonl)'
	@echo 'make clean            remove $(BIN), vendored copies and coverage files'
	@echo 'make distclean        clean, and remove node_modules'

assets: $(VENDOR_FILES)

peers: $(NPM_STAMP)

$(NPM_STAMP): package-lock.json package.json
	$(NPM) ci --no-audit --no-fund
	@touch $@ $(NPM_PROD_STAMP)

$(NPM_PROD_STAMP): package-lock.json package.json
	@if [ -f $(NPM_STAMP) ] && [ $(NPM_STAMP) -nt package-lock.json ] && [ $(NPM_STAMP) -nt package.json ]; then \
		echo 'npm: the full install is current; it holds the product packages'; \
	else \
		echo '$(NPM) ci --omit=dev --no-audit --no-fund'; \
		$(NPM) ci --omit=dev --no-audit --no-fund; \
	fi
	@touch $@

$(VENDOR_DIR)/htmx.min.js: $(NPM_PROD_STAMP)
	cp node_modules/htmx.org/dist/htmx.min.js $@

$(VENDOR_DIR)/ws.min.js: $(NPM_PROD_STAMP)
	cp node_modules/htmx-ext-ws/dist/ws.min.js $@

generate:
	$(GO) tool templ generate

# Compares checksums of every *_templ.go before and after generating, so it
# works in a fresh clone (CI) and in a work tree with uncommitted changes.
check-generated:
	@before="$$(find . -path ./node_modules -prune -o -type f -name '*_templ.go' -print | LC_ALL=C sort | xargs -r sha256sum)"; \
	$(GO) tool templ generate; \
	after="$$(find . -path ./node_modules -prune -o -type f -name '*_templ.go' -print | LC_ALL=C sort | xargs -r sha256sum)"; \
	if [ "$$before" != "$$after" ]; then \
		echo 'check-generated: `go tool templ generate` changed these *_templ.go files:' >&2; \
		diff <(echo "$$before") <(echo "$$after") | sed -n 's/^[<>] [0-9a-f]*  /  /p' | LC_ALL=C sort -u >&2; \
		echo 'check-generated: run `make generate` and commit the generated files.' >&2; \
		exit 1; \
	fi; \
	echo 'check-generated: *_templ.go files are up to date'

build: assets
	$(GO) build -o $(BIN) ./cmd/playground

run: build
	./$(BIN) serve $(ARGS)

test: peers assets check-generated
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 20m ./...
	$(MAKE) --no-print-directory fuzz FUZZTIME=20000x

# go test -fuzz takes one target at a time. New inputs are minimized for at
# most 1s, so that the time goes to fuzzing. make test gives each target a
# number of inputs rather than a time: a run stopped by its time limit
# while a worker is busy can end in "context deadline exceeded" on a loaded
# machine, a failure of the fuzzing engine, not of the code.
# Each target is PACKAGE:NAME.
FUZZ_TARGETS := ./mcpclient:FuzzReadLine ./mcpclient:FuzzReadSSE ./mcpclient:FuzzDecodeMessage ./mcpclient:FuzzWithProgressToken ./mcpclient/lint:FuzzLint
FUZZTIME ?= 10s

fuzz:
	for t in $(FUZZ_TARGETS); do \
		$(GO) test -run '^$$' -fuzz "^$${t##*:}\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 1s "$${t%%:*}/" || exit 1; \
	done

# Every benchmark, one package at a time (-p 1) so that none shares the CPUs
# with another; they append their figures and targets to $(BENCH_OUT), which
# benchreport prints as a table. A figure that misses its target fails nothing.
BENCH_OUT := bin/bench.jsonl

bench: peers assets
	@mkdir -p $(dir $(BENCH_OUT)) && rm -f $(BENCH_OUT)
	PLAYGROUND_BENCH_OUT=$(CURDIR)/$(BENCH_OUT) $(GO) test -p 1 -run '^$$' -bench . -benchmem -timeout 30m ./...
	$(GO) run ./cmd/playground/benchreport $(BENCH_OUT)

clean:
	rm -rf bin
	rm -f $(VENDOR_FILES) cover.out coverage.out coverage.html
	rm -rf coverage

distclean: clean
	rm -rf node_modules
