# Vitalis: the two commands are `make run` and `make test`. `make help` lists the rest.
SHELL := /bin/bash
.DEFAULT_GOAL := help

include infra/infra.mk

node_modules: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch node_modules

.PHONY: help install run migrate stop logs test test-main test-disruptive demo-topic-mark demo-topic-check contract-check typecheck lint format-check lint-clients bench bench-research openapi clients-env browser fhir-validator deploy-check metrics-check
help: ## This list
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

install: node_modules infra-install fhir-validator ## Install everything that is missing (npm packages, Debian packages, Kafka jars, the FHIR validator)

run: install up ## Start the stack, apply the migrations (as the owner), start all four apps (as vitalis_app), seed demo data, print the URLs
	@infra/bin/apps start

migrate: node_modules up ## Apply the database migrations as the owner (MIGRATION_DATABASE_URL); `make run` does it first
	@infra/bin/apps migrate

apps-status: ## Which of the four apps are running
	@infra/bin/apps status

stop: ## Stop the four apps (the infrastructure keeps running; `make down` stops it)
	@infra/bin/apps stop

logs: ## Follow the apps' logs
	@tail -n 50 -F .data/logs/gateway.log .data/logs/ingest.log .data/logs/projector.log .data/logs/simulator.log

typecheck: node_modules ## TypeScript strict, whole repo (and the UI cards' browser code without Node types)
	npx tsc -p tsconfig.json
	npx tsc -p apps/gateway/src/ui/cards/tsconfig.json

lint: node_modules ## ESLint (typescript-eslint) over the whole tree, zero warnings
	npx eslint --max-warnings 0 .

# Layout is Prettier's (.prettierrc.json: 140 columns, single quotes); `npx prettier --write <files>` fixes it.
format-check: node_modules ## Prettier's check over the TypeScript and JavaScript tree, zero differences
	npx prettier --check --log-level warn "**/*.{ts,mts,mjs,js}"

# The client libraries' own linters: ruff and mypy --strict over libs/client-py (pinned in its pyproject.toml,
# installed in its venv by infra/bin/python-env) and go vet over libs/client-go. Any finding fails.
lint-clients: ## Ruff and mypy --strict over the Python client, go vet over the Go client, zero findings
	@python=$$(infra/bin/python-env) && cd libs/client-py && $$python -m ruff check && $$python -m mypy
	@go=$$(infra/bin/go-env) && cd libs/client-go && $$go vet ./... && echo "go vet: no findings"

test: node_modules up demo-topic-mark clients-env browser fhir-validator deploy-check typecheck lint format-check lint-clients metrics-check contract-check test-main test-disruptive demo-topic-check ## The full suite against real PostgreSQL, Kafka and Redis (and the contract check)

test-main: node_modules
	npx vitest run

metrics-check: ## Prometheus alerting/recording rules: promtool check + the rule unit tests (infra/prometheus)
	@promtool=$$(infra/bin/promtool) && cd infra/prometheus && $$promtool check rules rules.yml && $$promtool test rules rules.test.yml

# The Python and Go client libraries' toolchains: a venv for libs/client-py, Go modules for libs/client-go.
clients-env:
	@infra/bin/python-env >/dev/null
	@infra/bin/go-env >/dev/null

# The independent FHIR R4 validator the tests check every resource with (HAPI FHIR from Maven
# Central, compiled with the JDK's javac; fetched/compiled only when missing). See docs/testing.md.
fhir-validator: ## Build the FHIR R4 validator used by the tests (infra/fhir-validator), when missing
	@infra/bin/fhir-validator >/dev/null

# No Docker engine or cluster needed: schemas, linters and Compose's own parser (docs/operations.md#deployment).
deploy-check: ## Validate the image, compose files and Kubernetes manifests (kubernetes-validate, hadolint, compose config)
	@infra/bin/deploy-check

browser: ## Headless Chromium for the UI browser tests (Debian package, installed when missing)
	@infra/bin/chromium >/dev/null

# The contract check (docs/contract-testing.md): Schemathesis, pinned in its own venv, fuzzes every
# operation of the gateway's /openapi.json against a real gateway it starts, in a fresh database of
# its own (<DATABASE_URL's database>_fuzz); any finding fails. The linter first (Redocly CLI, pinned,
# recommended-strict, redocly.yaml; reasoned exceptions in .redocly.lint-ignore.yaml): any finding
# fails the step. Part of `make test`: 2.5 minutes alone on 2 cores, 4 to 6 under load (budget 8).
REDOCLY_CLI := @redocly/cli@2.77.0
contract-check: node_modules ## Lint the OpenAPI (Redocly) and fuzz it against a real gateway (Schemathesis, all checks, fixed seed)
	npx --yes $(REDOCLY_CLI) lint --config redocly.yaml --format=summary schemas/openapi.json
	@infra/bin/contract-env >/dev/null
	node --import tsx test/contract/fuzz.ts

# The tests never touch the demo (`make run`): they publish to topics of their own (TEST_TOPICS,
# CONTRACT_TOPICS in test/helpers/env.ts) and use databases of their own. `make test` marks the
# demo's observations topic first and fails at the end if any record but the demo simulator's
# reached it meanwhile (test/helpers/demo-topic.ts).
demo-topic-mark: node_modules
	@node --import tsx test/helpers/demo-topic.ts mark
demo-topic-check: node_modules
	@node --import tsx test/helpers/demo-topic.ts check

# Tests that stop and restart the shared servers run alone, after everything else.
test-disruptive: node_modules
	npx vitest run --config vitest.disruptive.config.ts

bench: node_modules up ## The benches of record (<= 20 min): one summary table, every figure in bench-results/*.json (test/bench/run.ts)
	NODE_ENV=$${NODE_ENV:-development} node --import tsx test/bench/run.ts

bench-research: node_modules up ## make bench plus the research phases (index and WAL studies, Kafka clients, vitals history/traces, ward scenario, other surfaces)
	NODE_ENV=$${NODE_ENV:-development} BENCH_RESEARCH=1 node --import tsx test/bench/run.ts

openapi: node_modules up ## Regenerate schemas/openapi.json from the routes (commit it; a test checks it is current)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:55432/vitalis_test} npm run openapi
