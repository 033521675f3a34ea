# Included by the root Makefile: the local infrastructure (infra/bin/stack; see infra/README.md).
STACK := infra/bin/stack

.PHONY: up down status infra-install kafka-smoke
infra-install: ## Install PostgreSQL 15, Redis (apt) and fetch the Kafka jars (Maven Central), when missing
	@$(STACK) install
up: node_modules ## Start PostgreSQL, Redis and Kafka (idempotent; restarts crashed servers)
	@$(STACK) up
down: ## Stop the local infrastructure (data in .data/ is kept)
	@$(STACK) down
status: ## One line per server; fails unless all three are healthy
	@$(STACK) status
kafka-smoke: node_modules ## Prove kafkajs against the broker: produce, consumer group + rebalance, transactions
	@node infra/bin/kafka-smoke.mjs
