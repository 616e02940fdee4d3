import type { MigrationInterface, QueryRunner } from 'typeorm';
import { createMonthSql, LEDGER_MONTHS_AHEAD, ledgerMonth, ledgerMonthsAhead } from '../ledger/ledger-months';

/** The ledger's indexes (decision 0007), now on the partitioned parent: each partition gets its own. */
const INDEXES: ReadonlyArray<[string, string]> = [
  ['request_log_time', '(created_at)'],
  ['request_log_key_time_cost', '(api_key_id, created_at) INCLUDE (cost_usd)'],
  ['request_log_team_time_cost', '(team_id, created_at) INCLUDE (cost_usd) WHERE team_id IS NOT NULL'],
  ['request_log_client_request_id', '(client_request_id) WHERE client_request_id IS NOT NULL'],
  ['request_log_errors_time', '(created_at) WHERE status >= 400'],
  ['request_log_served_model_time', '(served_model, created_at)'],
  ['request_log_requested_model_time', '(requested_model, created_at) WHERE requested_model IS DISTINCT FROM served_model'],
];

/** What an operator may build ahead on a large ledger (docs/guide/scaling.md, "Partitioning an existing ledger"). */
const LEGACY_KEY = 'request_log_legacy_key';
const LEGACY_RANGE = 'request_log_legacy_range';

/**
 * `request_log` partitioned by month on `created_at` (ARCHITECTURE §9, decision 0027). The key
 * becomes (request_id, created_at): a partitioned table's unique keys must hold the partition key,
 * and created_at is the request's start time, the same on a retried batch and on a recovery row.
 * A default partition catches a row no month holds yet (a clock far off, a hand-written old row),
 * so the ledger never refuses money for want of a partition; the gateway moves such rows into
 * their month's partition when it creates it.
 *
 * An empty table is replaced. A table with rows is kept whole as one partition,
 * `request_log_legacy`, for everything before the next month (or before the bound of a range
 * check the operator validated ahead): attaching it reads no rows when that check and the
 * (request_id, created_at) unique index already exist, which is how a large ledger moves
 * without downtime; on a small one the migration builds both itself in moments.
 */
export class LedgerPartitions1733700000000 implements MigrationInterface {
  name = 'LedgerPartitions1733700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const [{ filled }] = (await queryRunner.query('SELECT EXISTS (SELECT 1 FROM request_log) AS filled')) as [{ filled: boolean }];
    const legacyTo = filled ? await setLegacyAside(queryRunner) : undefined;
    if (!filled) await queryRunner.query('DROP TABLE request_log');
    await queryRunner.query(`
      CREATE TABLE request_log (
        request_id text NOT NULL, api_key_id uuid, dialect text NOT NULL, requested_model text, served_model text, provider text,
        status integer NOT NULL, error_type text, input_tokens integer NOT NULL DEFAULT 0, output_tokens integer NOT NULL DEFAULT 0,
        cached_tokens integer NOT NULL DEFAULT 0, reasoning_tokens integer NOT NULL DEFAULT 0, cost_usd numeric(20, 12) NOT NULL DEFAULT 0,
        latency_ms integer NOT NULL, ttft_ms integer, streamed boolean NOT NULL, attempts integer NOT NULL DEFAULT 0, route text,
        created_at timestamptz NOT NULL, client_request_id text, team_id uuid, uncharged_usd numeric(20, 12), cache text,
        saved_usd numeric(20, 12), cache_write_tokens integer NOT NULL DEFAULT 0,
        cache_read_tokens integer GENERATED ALWAYS AS (cached_tokens) STORED,
        CONSTRAINT request_log_pkey PRIMARY KEY (request_id, created_at)
      ) PARTITION BY RANGE (created_at)`);
    for (const [name, definition] of INDEXES) await queryRunner.query(`CREATE INDEX ${name} ON request_log ${definition}`);
    await queryRunner.query('CREATE TABLE request_log_default PARTITION OF request_log DEFAULT');
    if (legacyTo) {
      await queryRunner.query(`ALTER TABLE request_log ATTACH PARTITION request_log_legacy FOR VALUES FROM (MINVALUE) TO ('${legacyTo.toISOString()}')`);
      await queryRunner.query(`ALTER TABLE request_log_legacy DROP CONSTRAINT ${LEGACY_RANGE}`);
    }
    const now = new Date();
    for (const month of ledgerMonthsAhead(now, LEDGER_MONTHS_AHEAD)) {
      if (!legacyTo || month.from.getTime() >= legacyTo.getTime()) await queryRunner.query(createMonthSql(month));
    }
  }

  /** Back to one table: every row copied (fine for a database one is stepping back on). */
  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE TABLE request_log_single (LIKE request_log INCLUDING DEFAULTS INCLUDING GENERATED)');
    const columns = (await queryRunner.query(
      "SELECT string_agg(quote_ident(column_name), ', ' ORDER BY ordinal_position) AS list FROM information_schema.columns WHERE table_name = 'request_log' AND is_generated = 'NEVER'",
    )) as [{ list: string }];
    await queryRunner.query(`INSERT INTO request_log_single (${columns[0].list}) SELECT ${columns[0].list} FROM request_log`);
    await queryRunner.query('DROP TABLE request_log');
    await queryRunner.query('ALTER TABLE request_log_single RENAME TO request_log');
    await queryRunner.query('ALTER TABLE request_log ADD CONSTRAINT request_log_pkey PRIMARY KEY (request_id)');
    for (const [name, definition] of INDEXES) await queryRunner.query(`CREATE INDEX ${name} ON request_log ${definition}`);
  }
}

/**
 * Renames the filled table and its indexes out of the way and readies it to be attached: the
 * (request_id, created_at) key as a primary key and a validated check that no row is at or after
 * the returned bound. Either may have been built ahead by the operator; what exists is reused.
 */
async function setLegacyAside(queryRunner: QueryRunner): Promise<Date> {
  const [prepared] = (await queryRunner.query(
    `SELECT (regexp_match(pg_get_constraintdef(c.oid), '''([^'']+)'''))[1]::timestamptz AS bound, c.convalidated AS valid
       FROM pg_constraint c WHERE c.conrelid = 'request_log'::regclass AND c.conname = $1`,
    [LEGACY_RANGE],
  )) as Array<{ bound: Date | null; valid: boolean }>;
  const to = prepared?.bound ?? ledgerMonth(new Date(), 1).from;
  if (ledgerMonth(to).from.getTime() !== to.getTime()) {
    throw new Error(`${LEGACY_RANGE} must bound created_at by the first instant of a UTC month (e.g. '2027-01-01T00:00:00Z'), got ${to.toISOString()}`);
  }
  await queryRunner.query('ALTER TABLE request_log RENAME TO request_log_legacy');
  await queryRunner.query('ALTER TABLE request_log_legacy RENAME CONSTRAINT request_log_pkey TO request_log_legacy_id');
  for (const [name] of INDEXES) await queryRunner.query(`ALTER INDEX IF EXISTS ${name} RENAME TO ${name.replace('request_log_', 'request_log_legacy_')}`);
  if (!prepared) await queryRunner.query(`ALTER TABLE request_log_legacy ADD CONSTRAINT ${LEGACY_RANGE} CHECK (created_at < '${to.toISOString()}') NOT VALID`);
  if (!prepared?.valid) await queryRunner.query(`ALTER TABLE request_log_legacy VALIDATE CONSTRAINT ${LEGACY_RANGE}`);
  await queryRunner.query(`CREATE UNIQUE INDEX IF NOT EXISTS ${LEGACY_KEY} ON request_log_legacy (request_id, created_at)`);
  // The parent's primary key attaches only to a constraint: the old one on request_id alone goes
  // (its NOT NULL stays, named, so the new key need not check every row again).
  await queryRunner.query('ALTER TABLE request_log_legacy ALTER COLUMN request_id SET NOT NULL');
  await queryRunner.query('ALTER TABLE request_log_legacy DROP CONSTRAINT request_log_legacy_id');
  await queryRunner.query(`ALTER TABLE request_log_legacy ADD CONSTRAINT request_log_legacy_pkey PRIMARY KEY USING INDEX ${LEGACY_KEY}`);
  return to;
}
