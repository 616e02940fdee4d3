import { randomBytes } from 'node:crypto';
import { createDataSource, migrate } from '@rosetta/persistence';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { StoredAnswerRepository } from './stored-answer.repository';

const ADMIN_DATABASE_URL = process.env['TEST_ADMIN_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function admin(sql: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The repository on a throwaway PostgreSQL database (PGlite needs ESM dynamic imports Jest's VM
 * lacks; test/embedded-database.e2e-spec.ts runs the gateway on it).
 */
const ENGINES: Array<[string, () => Promise<{ dataSource: DataSource; drop(): Promise<void> }>]> = [
  [
    'PostgreSQL',
    async () => {
      const name = `rosetta_test_${randomBytes(6).toString('hex')}`;
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(ADMIN_DATABASE_URL);
      url.pathname = `/${name}`;
      const dataSource = createDataSource({ url: url.toString(), dataDir: '', entities: [] });
      await dataSource.initialize();
      return { dataSource, drop: async () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
    },
  ],
];

describe.each(ENGINES)('StoredAnswerRepository on %s', (_engine, open) => {
  let db: { dataSource: DataSource; drop(): Promise<void> };
  let repository: StoredAnswerRepository;
  const later = () => new Date(Date.now() + 60_000);

  beforeAll(async () => {
    db = await open();
    await migrate(db.dataSource);
    repository = new StoredAnswerRepository(db.dataSource);
  });

  afterAll(async () => {
    await db.dataSource.destroy();
    await db.drop();
  });

  it('reads back, deletes and purges only what it should, for the owning key', async () => {
    const record = { response: { id: 'resp_a', output: [] }, input: [{ type: 'message', role: 'user', content: 'hi' }] };
    await repository.insert({ id: 'resp_a', apiKeyId: 'key-1', dialect: 'openai-responses', record, expiresAt: later() });
    await repository.insert({ id: 'resp_old', apiKeyId: 'key-1', dialect: 'openai-responses', record, expiresAt: new Date(Date.now() - 1000) });
    expect(await repository.findOwned(['resp_a', 'resp_old'], 'key-1')).toEqual(new Map([['resp_a', record]]));
    expect(await repository.findOwned(['resp_a'], 'key-2')).toEqual(new Map());
    expect(await repository.deleteOwned('resp_a', 'key-2')).toBe(false);
    expect(await repository.deleteOwned('resp_old', 'key-1')).toBe(false);
    expect(await repository.deleteOwned('resp_a', 'key-1')).toBe(true);
    expect(await repository.purgeExpired(10)).toBe(1);
    expect(await repository.purgeExpired(10)).toBe(0);
  });

  it('keeps answers whose text holds any JSON string, NUL characters and lone surrogates included', async () => {
    // A tool's output (a binary file read by an agent) or a model's answer may hold them; JSON
    // carries them, and the client that sent them expects to continue from this answer.
    const record = { response: { id: 'resp_nul', output: [] }, input: [{ type: 'function_call_output', call_id: 'c1', output: 'PK\u0003\u0004\u0000\u0000 and \ud83d alone' }] };
    await repository.insert({ id: 'resp_nul', apiKeyId: 'key-1', dialect: 'openai-responses', record, expiresAt: later() });
    expect(await repository.findOwned(['resp_nul'], 'key-1')).toEqual(new Map([['resp_nul', record]]));
  });

  it('walks a conversation up its chain, each answer once, for the owning key only, within the limit', async () => {
    const turn = (id: string) => ({ response: { id, output: [] }, input: [] });
    const put = (id: string, parentId: string | undefined, expiresAt = later()) =>
      repository.insert({ id, ...(parentId ? { parentId } : {}), apiKeyId: 'key-c', dialect: 'openai-responses', record: turn(id), expiresAt });
    await put('resp_c1', undefined);
    await put('resp_c2', 'resp_c1');
    await put('resp_c3', 'resp_c2');
    await put('resp_c3b', 'resp_c2');
    const size = Buffer.byteLength(JSON.stringify(turn('resp_c1')));
    const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();
    // Two answers sharing their ancestors: every answer appears once.
    const chain = await repository.chainSizes(['resp_c3', 'resp_c3b'], 'key-c', 100);
    expect(ids(chain)).toEqual(['resp_c1', 'resp_c2', 'resp_c3', 'resp_c3b']);
    expect(chain.find((r) => r.id === 'resp_c1')).toEqual({ id: 'resp_c1', bytes: size });
    expect(await repository.chainSizes(['resp_c3'], 'key-other', 100)).toEqual([]);
    expect(await repository.chainSizes(['resp_c3'], 'key-c', 2)).toHaveLength(2);
    // An expired turn ends the walk there (the dialect then says the conversation is incomplete).
    await put('resp_e1', undefined, new Date(Date.now() - 1000));
    await put('resp_e2', 'resp_e1');
    expect(ids(await repository.chainSizes(['resp_e2'], 'key-c', 100))).toEqual(['resp_e2']);
  });
});
