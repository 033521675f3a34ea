export { countRows, createPool, withTransaction, type Pool, type PoolClient, type PoolOptions, type Queryable } from './pool';
export {
  migrate,
  readMigrations,
  pendingMigrations,
  appRoleRisks,
  assertAppDatabase,
  requireAppDatabase,
  storageMode,
  MigrationError,
  AppRoleError,
  MIGRATIONS_DIR,
  type Migration,
  type AppDatabaseCheck,
} from './migrate';
export { seriesAmong, seriesOf, seriesOfPatients } from './series';
