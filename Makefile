# docintel: `make run` and `make test` on a fresh Debian machine do all set-up themselves.
SHELL := /bin/bash
.DEFAULT_GOAL := help

BUN_VERSION := 1.4.4
TOOLS := $(CURDIR)/.tools
# Bun on PATH wins; otherwise the copy installed from the npm registry into .tools
BUN := $(shell command -v bun 2>/dev/null || echo $(TOOLS)/node_modules/.bin/bun)
APT_PACKAGES := 7zip bzip2 xz-utils mupdf-tools chromium-headless-shell chromium tesseract-ocr tesseract-ocr-eng ffmpeg poppler-utils libreoffice-core \
	tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-nld tesseract-ocr-por tesseract-ocr-ara tesseract-ocr-heb \
	libreoffice-writer libreoffice-calc libreoffice-impress libvips-tools libheif-examples python3-uno bubblewrap \
	fonts-dejavu-core zip unzip curl ca-certificates postgresql
export PUPPETEER_SKIP_DOWNLOAD := 1
export PATH := $(TOOLS)/node_modules/.bin:$(PATH)

# only the tests need these (systemd-analyze verifies the unit of make dist; minimal images lack it)
TEST_APT_PACKAGES := systemd
# only the benchmarks need these (pandoc is the DOCX baseline)
BENCH_APT_PACKAGES := pandoc

# STORE_TESTS: the store-facing test files, which make test-postgres runs with every test server on
# PostgreSQL (DOCINTEL_TEST_DATABASE=postgres; a throwaway cluster per test process)
STORE_TESTS := test/tasks.test.ts test/credits.test.ts test/webhooks.test.ts test/auth.test.ts test/ratelimit.test.ts test/thumbnails-tasks.test.ts
# TEST_POSTGRES: yes (the default) = make test also runs STORE_TESTS on PostgreSQL; no = SQLite only
# (quicker while working on something else; CI keeps yes)
TEST_POSTGRES ?= yes

PORT ?= 8080
DIST_DIR ?= dist
DATA ?= ./data
# FLAGS: more options for `serve` (docintel serve --help), e.g. FLAGS=--allow-private-urls
FLAGS ?=

.PHONY: help setup setup-apt setup-bun setup-deps run test test-postgres build dist bench clean clean-data

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

setup: setup-apt setup-bun setup-deps ## install Debian packages, Bun and node modules (idempotent)

setup-apt:
	@missing=""; for p in $(APT_PACKAGES) $(EXTRA_APT); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

setup-bun:
	@if ! command -v bun >/dev/null 2>&1 && [ ! -x $(TOOLS)/node_modules/.bin/bun ]; then \
	  echo "installing Bun $(BUN_VERSION) from the npm registry into .tools"; \
	  mkdir -p $(TOOLS) && npm install --prefix $(TOOLS) --no-save --no-audit --no-fund bun@$(BUN_VERSION) >/dev/null; \
	fi

setup-deps: setup-bun
	@$(BUN) install --frozen-lockfile >/dev/null

run: setup ## set up, then start the service on PORT (8080) with DATA (./data) and any serve FLAGS
	$(BUN) bin/docintel serve --port $(PORT) --data $(DATA) $(FLAGS)

test: ## set up, then type-check and run the test suite against real servers and tools
	@$(MAKE) --no-print-directory setup EXTRA_APT="$(TEST_APT_PACKAGES)"
	$(BUN) x tsc --noEmit -p .
	$(BUN) scripts/check-cycles.ts
	$(BUN) test --timeout 60000
	@if [ "$(TEST_POSTGRES)" = yes ]; then $(MAKE) --no-print-directory test-postgres; \
	else echo "note: the store-facing tests ran on SQLite only (TEST_POSTGRES=no; make test-postgres runs them on PostgreSQL)"; fi

test-postgres: ## run the store-facing tests again with every test server on PostgreSQL
	@$(MAKE) --no-print-directory setup EXTRA_APT="$(TEST_APT_PACKAGES)"
	DOCINTEL_TEST_DATABASE=postgres $(BUN) test --timeout 60000 $(STORE_TESTS)

build: setup-bun setup-deps ## compile the single binary dist/docintel
	$(BUN) scripts/build.ts --outfile dist/docintel

dist: setup-bun setup-deps ## build dist/docintel-<version>-linux-x64.tar.gz (binary, systemd unit, install.sh) and its .sha256
	$(BUN) scripts/dist.ts --outdir $(DIST_DIR) --apt-packages "$(APT_PACKAGES)"

bench: ## run the benchmarks (ratios against baselines run in the same script)
	@$(MAKE) --no-print-directory setup EXTRA_APT="$(BENCH_APT_PACKAGES)"
	$(BUN) bench/run.ts

clean: ## remove build output (never data: see clean-data)
	rm -rf dist

clean-data: ## DELETE the local data dir $(DATA): every API key, the credit ledger, tasks and files
	@echo "This deletes $(DATA): every API key, the credit ledger, tasks and thumbnail files. Ctrl-C within 5 s to keep it."
	@sleep 5
	rm -rf $(DATA)
