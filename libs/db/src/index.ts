export { createPool, withTransaction, type Pool, type PoolClient, type PoolOptions, type Queryable } from './pool';
export { migrate, readMigrations, storageMode, MigrationError, MIGRATIONS_DIR, type Migration } from './migrate';
