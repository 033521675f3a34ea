# Included by the root Makefile: the local infrastructure targets.
STACK := infra/bin/stack

.PHONY: up down status infra-install
infra-install: ## Install PostgreSQL, Redis (apt) and fetch Kafka jars (Maven Central), when missing
	@$(STACK) install
up: node_modules ## Start PostgreSQL, Redis and Kafka (idempotent; restarts crashed servers)
	@$(STACK) up
down: ## Stop the local infrastructure
	@$(STACK) down
status: ## One line per server
	@$(STACK) status
