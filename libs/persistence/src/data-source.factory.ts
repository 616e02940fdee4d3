import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import { PGliteDriver } from 'typeorm-pglite';
import { MIGRATIONS } from './migrations';

export interface DatabaseOptions {
  /** A PostgreSQL URL; absent → embedded PGlite under `dataDir`. */
  url?: string;
  dataDir: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  poolSize?: number;
}

export type DatabaseKind = 'postgres' | 'pglite';

export function databaseKind(options: Pick<DatabaseOptions, 'url'>): DatabaseKind {
  return options.url ? 'postgres' : 'pglite';
}

export function createDataSource(options: DatabaseOptions): DataSource {
  const common = { type: 'postgres' as const, entities: options.entities, migrations: MIGRATIONS, synchronize: false, logging: false };
  if (options.url) {
    return new DataSource({ ...common, url: options.url, extra: { max: options.poolSize ?? 10 } });
  }
  const dir = resolve(options.dataDir, 'pgdata');
  mkdirSync(dir, { recursive: true });
  return new DataSource({ ...common, driver: new PGliteDriver({ dataDir: dir }).driver });
}

/** Path of the embedded database, for the start-up message. */
export function embeddedDatabasePath(dataDir: string): string {
  return join(resolve(dataDir), 'pgdata');
}

const MIGRATION_LOCK = 7_152_026; // arbitrary, fixed: serialises replicas migrating at once

/**
 * Runs pending migrations under a session advisory lock so that replicas starting together do not
 * race each other through the same migration.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
