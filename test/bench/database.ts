/**
 * A database of the bench's own, dropped and created anew at every run: figures do not depend on
 * what earlier runs left behind, and no demo or test data is touched. BENCH_ADMIN_DATABASE_URL is
 * the server's maintenance database (default: the local one); BENCH_DATABASE overrides the name.
 * Returns the new database's URL; the bench migrates it (all of it, or a prefix of the migrations).
 */
import { recreateDatabase } from '../helpers/fresh-database';

export async function recreateBenchDatabase(defaultName: string): Promise<string> {
  const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres';
  return recreateDatabase(adminUrl, process.env.BENCH_DATABASE ?? defaultName);
}
