# readmeter: what a language model must read from an agent-facing service.
# Every target documents itself: `make help` lists them.

GO ?= go
# The linters, pinned; `go run PKG@VERSION` builds them from the module proxy.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.7.0
DEADCODE ?= golang.org/x/tools/cmd/deadcode@v0.42.0
FUZZTIME ?= 30s
export GOTOOLCHAIN := local

.PHONY: help demo test lint fmt vet tidy-check npm-deps bench fuzz screenshot

help: ## List the targets.
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-12s %s\n", $$1, $$2}' $(MAKEFILE_LIST) | sed 's/$$(FUZZTIME)/$(FUZZTIME)/'

demo: ## Run every walk and tool-list count on the embedded twin and check the budgets.
	$(GO) run ./cmd/walks run specs/schellingaf --budgets specs/twin/budgets.json --summary

test: npm-deps ## Run the tests exactly as CI does (gofmt, vet also for macOS and Windows, staticcheck, deadcode, race tests, tidy).
	@out=$$(gofmt -l . | grep -v '^testdata/' || true); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	GOOS=darwin $(GO) vet ./... && GOOS=windows $(GO) vet ./...
	@$(MAKE) --no-print-directory lint
	$(GO) test -race -count=1 -timeout 40m ./...
	@bak=$$(mktemp -d) && trap 'rm -rf "$$bak"' EXIT INT TERM && \
	  cp go.mod go.sum "$$bak"/ && $(GO) mod tidy && \
	  if ! cmp -s go.mod "$$bak"/go.mod || ! cmp -s go.sum "$$bak"/go.sum; then \
	    echo "go mod tidy changes go.mod or go.sum"; cp "$$bak"/go.mod "$$bak"/go.sum .; exit 1; fi

# Packages that only tests import (servers, oracles and script commands for
# tests): deadcode without -test sees them unreached, as it should.
TESTSUPPORT := internal/(browsertest|junit/junittest|mcptest|nodeoracle|oddserver|proctest|scripttest|walktest|infile/infiletest)/

lint: ## Run staticcheck and deadcode (pinned versions); both must print nothing.
	$(GO) run $(STATICCHECK) ./...
	@out=$$($(GO) run $(DEADCODE) -test ./...) || exit 1; if [ -n "$$out" ]; then echo "deadcode: unreachable functions:"; echo "$$out"; exit 1; fi
	@out=$$($(GO) run $(DEADCODE) ./...) || exit 1; out=$$(echo "$$out" | grep -Ev '^$(TESTSUPPORT)' || true); \
	  if [ -n "$$out" ]; then echo "deadcode: functions only tests reach (move them to an export_test.go, or delete them):"; echo "$$out"; exit 1; fi

npm-deps: testdata/npm/node_modules/.package-lock.json testdata/npm/versions/node_modules/.package-lock.json ## Install the pinned MCP servers from npm that integration tests run (again only when a lock file changed).
	@:

# npm ci writes node_modules/.package-lock.json; it is older than the lock
# file only when the lock file changed since (or nothing is installed).
testdata/npm/node_modules/.package-lock.json: testdata/npm/package-lock.json testdata/npm/package.json
	@cd testdata/npm && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

testdata/npm/versions/node_modules/.package-lock.json: testdata/npm/versions/package-lock.json testdata/npm/versions/package.json
	@cd testdata/npm/versions && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

bench: ## Run the benchmarks recorded in BENCHMARKS.md (Go benchmarks, start-up, measure against Node, tokenizers).
	$(GO) test -run '^$$' -bench . -benchmem ./...
	bash bench/startup.sh
	bash bench/compare.sh
	bash bench/tokenizer.sh
	bash bench/earlyerror.sh
	bash bench/finders.sh
	bash bench/html.sh

screenshot: ## Draw docs/report.png: measure --html's page of the twin's tool list, as headless Chromium shows it.
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	  $(GO) run ./cmd/measure --tokenizer o200k --html "$$tmp/report.html" captures/twin/tools-mcp.json >/dev/null && \
	  $(GO) run ./bench/htmlpage -runs 1 -screenshot docs/report.png "$$tmp/report.html"

fuzz: ## Fuzz each target for $(FUZZTIME) (the JSON ones compare with Node).
	$(GO) test -run '^$$' -fuzz '^FuzzStringify$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./jsonjs
	$(GO) test -run '^$$' -fuzz '^FuzzValidateFind$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./jsonjs
	$(GO) test -run '^$$' -fuzz '^FuzzPlainRun$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./jsonjs
	$(GO) test -run '^$$' -fuzz '^FuzzMeasure$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./toollist
	$(GO) test -run '^$$' -fuzz '^FuzzParseFinds$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./toollist
	$(GO) test -run '^$$' -fuzz '^FuzzTSBudgets$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./budgets
	$(GO) test -run '^$$' -fuzz '^FuzzSpec$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 5s ./walk
