import { randomBytes } from 'node:crypto';
import type { DialectId } from '@rosetta/canonical';
import { createDataSource, migrate } from '@rosetta/persistence';
import type { AppLogger } from '@rosetta/platform';
import { Client } from 'pg';
import pino from 'pino';
import type { DataSource } from 'typeorm';
import { UsageDraft } from './usage-entry';
import { UsageRecorderService } from './usage-recorder.service';
import { UsageRepository } from './usage.repository';

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

/** A closed request's draft with these token counts (the row the recorder queues). */
function draft(inputTokens: number, requestedModel = 'rosetta/gpt-4o-mini'): UsageDraft {
  const d = new UsageDraft({ requestId: `req_${randomBytes(8).toString('hex')}`, dialect: 'openai' as DialectId });
  d.planned(requestedModel, false, undefined);
  d.reported({ inputTokens, outputTokens: 1 });
  return d;
}

/**
 * The ledger writer on a real PostgreSQL database: a row the database refuses for its data (a
 * count past the integer column, a NUL in text) must not hold back any other row (issue 26).
 */
describe('UsageRecorderService on PostgreSQL', () => {
  const name = `rosetta_test_${randomBytes(6).toString('hex')}`;
  let dataSource: DataSource;
  let recorder: UsageRecorderService;
  const logger = pino({ level: 'silent' }) as AppLogger;

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${name}`;
    dataSource = createDataSource({ url: url.toString(), dataDir: '', entities: [] });
    await dataSource.initialize();
    await migrate(dataSource);
  });

  beforeEach(() => {
    recorder = new UsageRecorderService(new UsageRepository(dataSource), logger);
  });

  afterAll(async () => {
    await dataSource.destroy();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  const written = async (ids: string[]): Promise<string[]> =>
    ((await dataSource.query('SELECT request_id FROM request_log WHERE request_id = ANY($1) ORDER BY request_id', [ids])) as Array<{ request_id: string }>).map((r) => r.request_id);

  it('writes every good row of a batch that holds a row the database refuses, and sets that row aside', async () => {
    const good = [draft(10), draft(20), draft(30)];
    const bad = draft(3_000_000_000);
    const nul = draft(5, 'rosetta/x\u0000y');
    for (const d of [good[0]!, bad, good[1]!, nul, good[2]!]) recorder.record(d, 200);

    await recorder.flush();

    expect(await written([...good, bad, nul].map((d) => d.requestId))).toEqual(good.map((d) => d.requestId).sort());
    expect(recorder.metrics()).toEqual({ pending: 0, dropped: 0, rejected: 2 });
    const aside = (await dataSource.query('SELECT request_id, row_json, error FROM request_log_rejected WHERE request_id = ANY($1) ORDER BY request_id', [[bad.requestId, nul.requestId]])) as Array<{
      request_id: string;
      row_json: string;
      error: string;
    }>;
    expect(aside.map((r) => r.request_id)).toEqual([bad.requestId, nul.requestId].sort());
    const kept = aside.find((r) => r.request_id === bad.requestId)!;
    expect(JSON.parse(kept.row_json)).toMatchObject({ requestId: bad.requestId, inputTokens: 3_000_000_000 });
    expect(kept.error).toMatch(/out of range/);
    expect(JSON.parse(aside.find((r) => r.request_id === nul.requestId)!.row_json).requestedModel).toBe('rosetta/x\u0000y');
  });

  it('keeps writing later batches after a refused row (nothing is re-queued forever)', async () => {
    recorder.record(draft(4_000_000_000), 200);
    await recorder.flush();
    const later = draft(7);
    recorder.record(later, 200);
    await recorder.flush();
    expect(await written([later.requestId])).toEqual([later.requestId]);
    expect(recorder.metrics()).toEqual({ pending: 0, dropped: 0, rejected: 1 });
  });

  it('keeps a batch the database cannot take now and writes it once it can', async () => {
    const d = draft(11);
    const repository = new UsageRepository(dataSource);
    const insert = repository.insertBatch.bind(repository);
    let down = true;
    repository.insertBatch = (rows) => (down ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) : insert(rows));
    recorder = new UsageRecorderService(repository, logger);
    recorder.record(d, 200);
    await recorder.flush();
    expect(recorder.metrics()).toEqual({ pending: 1, dropped: 0, rejected: 0 });
    down = false;
    await recorder.flush();
    expect(await written([d.requestId])).toEqual([d.requestId]);
    expect(recorder.metrics()).toEqual({ pending: 0, dropped: 0, rejected: 0 });
  });
});
