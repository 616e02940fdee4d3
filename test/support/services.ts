import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

export const ADMIN_DATABASE_URL = process.env['TEST_ADMIN_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the real server; dropped by `drop()`. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `rosetta_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** Runs SQL against a test database (to inspect what the gateway stored). */
export async function query<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
