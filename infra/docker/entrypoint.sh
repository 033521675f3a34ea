#!/bin/sh
# The image's entry point: `vitalis <command> [arguments]` runs one Vitalis process in the
# foreground. `exec` makes node PID 1, so SIGTERM reaches the app's own graceful shutdown
# (libs/runtime). test/unit/foundation/deploy.test.ts checks that every app in apps/ has a command.
set -eu
cd /app
command=${1:-}
[ "$#" -gt 0 ] && shift
case "$command" in
  gateway | ingest | projector | simulator)
    exec node --import tsx "apps/$command/src/main.ts" "$@" ;;
  migrate)
    # The owner's step (MIGRATION_DATABASE_URL), run once before the apps start.
    exec node --import tsx libs/db/src/migrate-cli.ts "$@" ;;
  admin)
    # Operator commands: initial-access-token, rotate-key, withdraw-key, audit-verify.
    exec node --import tsx apps/gateway/src/admin-cli.ts "$@" ;;
  *)
    echo "usage: vitalis gateway | ingest | projector [rebuild <projection|all>] | simulator [--burst N] | migrate | admin <command>" >&2
    exit 64 ;;
esac
