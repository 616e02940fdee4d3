import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DataSource, type EntitySchema, type MixedList } from 'typeorm';
import { vector } from '@electric-sql/pglite-pgvector';
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
  // pgvector is bundled (loaded, not yet created): the semantic response cache creates it on first use.
  return new DataSource({ ...common, driver: new PGliteDriver({ dataDir: dir, extensions: { vector } }).driver });
}

/** Path of the embedded database, for the start-up message. */
export function embeddedDatabasePath(dataDir: string): string {
  return join(resolve(dataDir), 'pgdata');
}

const MIGRATION_LOCK = 7_152_026; // arbitrary, fixed: serialises replicas migrating at once

const MIGRATION_LOCK_POLL_MS = 100;

/**
 * Runs pending migrations under a session advisory lock so that replicas starting together do not
 * race each other through the same migration. Waiting replicas poll with `pg_try_advisory_lock`
 * rather than block in `pg_advisory_lock`: a blocked statement holds a snapshot, and a migration
 * that builds an index CONCURRENTLY waits for every older snapshot, which would deadlock (through
 * the application, where PostgreSQL cannot see it) with the replica waiting for the lock.
 */
export async function migrate(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    for (;;) {
      const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS locked', [MIGRATION_LOCK])) as Array<{ locked: boolean }>;
      if (row?.locked) break;
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
    }
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await runner.release();
  }
}
