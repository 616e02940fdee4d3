/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The load half of bench/ledger-scale.js: LEDGER_ROWS rows over LEDGER_DAYS days written with
// generate_series straight into their monthly partitions, one statement per day (2,000 keys with a
// heavy tail, 50 teams, 10 models over 3 providers, 2 % errors, 5 % cache hits). Today is either
// filled up to the moment of the run, or — with LEDGER_TODAY_ROWS — filled for the whole UTC day at
// that many rows a day, so reports can be timed as of any hour of it (LEDGER_CLOCKS).
const { statfsSync } = require('node:fs');
const { ledgerMonth } = require('../../dist/libs/persistence/src');

const DAY_MS = 86_400_000;

/** Free space on the database's disk, in GB. */
function freeGigabytes(path = process.env.LEDGER_DISK_PATH || '/') {
  const stats = statfsSync(path);
  return Number(((stats.bavail * stats.bsize) / 1024 ** 3).toFixed(1));
}

const INSERT_DAY = `INSERT INTO $table (request_id, api_key_id, team_id, dialect, requested_model, served_model, provider, status, error_type, input_tokens,
    output_tokens, cached_tokens, cost_usd, latency_ms, streamed, created_at, cache, saved_usd)
  SELECT 'req_' || $1 || '_' || i, md5('key' || k)::uuid, md5('team' || (k % 50))::uuid, 'openai', 'rosetta/model-' || m, 'rosetta/model-' || m,
         (ARRAY['openai', 'anthropic', 'gemini'])[1 + m % 3], CASE WHEN r < 0.02 THEN 502 ELSE 200 END, CASE WHEN r < 0.02 THEN 'upstream_error' END,
         200 + (r * 2000)::int, 50 + (r * 500)::int, CASE WHEN m < 3 THEN (r * 100)::int ELSE 0 END,
         CASE WHEN r > 0.95 THEN 0 ELSE (0.0000015 * (1 + m)) * (200 + r * 2000) END, 300 + (r * 3000)::int, r > 0.5,
         $2::timestamptz + ((i - 1)::float8 / $3) * $4 * interval '1 millisecond', CASE WHEN r > 0.95 THEN 'hit' END,
         CASE WHEN r > 0.95 THEN (0.0000015 * (1 + m)) * (200 + r * 2000) END
    FROM (SELECT i, floor(2000 * power(random(), 3))::int AS k, floor(random() * 10)::int AS m, random() AS r FROM generate_series(1, $3) i) g`;

/**
 * Creates the months the rows need; with `unlogged`, every partition is made UNLOGGED (no WAL: the
 * load writes half as much) — reads are the same, a crash would empty them: for a benchmark only.
 * Autovacuum is left to the server's setting.
 */
async function preparePartitions(dataSource, usage, first, last, unlogged) {
  const partitions = new usage.LedgerPartitionsRepository(dataSource);
  for (let month = ledgerMonth(first); month.from <= last; month = ledgerMonth(month.to)) await partitions.createMonth(month);
  if (!unlogged) return;
  for (const p of await partitions.list()) await dataSource.query(`ALTER TABLE ${p.name} SET UNLOGGED`);
}

/**
 * Loads the rows; `log` reports progress. Stops (throws) when the disk's free space falls under
 * `minFreeGb`. Returns the first day and the insert time.
 */
async function load(dataSource, usage, o) {
  const today = Math.floor(o.now.getTime() / DAY_MS) * DAY_MS;
  const first = new Date(today - (o.days - 1) * DAY_MS);
  await preparePartitions(dataSource, usage, first, new Date(today + DAY_MS), o.unlogged);
  const perDay = Math.ceil(o.rows / o.days);
  const started = performance.now();
  const free = [];
  for (let day = 0; day < o.days; day += 1) {
    const from = new Date(first.getTime() + day * DAY_MS);
    const isToday = day === o.days - 1;
    // Today only up to now, unless it is filled whole at its own rate (reports then pick a clock).
    const span = isToday && !o.todayRows ? o.now.getTime() - from.getTime() : DAY_MS;
    const count = isToday && o.todayRows ? o.todayRows : span === DAY_MS ? perDay : Math.max(1, Math.round((perDay * span) / DAY_MS));
    await dataSource.query(INSERT_DAY.replace('$table', 'request_log'), [String(day), from, count, span]);
    if (day % 10 === 9 || isToday) {
      const gb = freeGigabytes();
      free.push(gb);
      o.log(`loaded ${day + 1}/${o.days} days, ${gb} GB free`);
      if (gb < o.minFreeGb) throw new Error(`stopped: ${gb} GB free on disk, under ${o.minFreeGb}`);
    }
  }
  return { first, insertSeconds: Number(((performance.now() - started) / 1000).toFixed(1)), minFreeGb: Math.min(...free) };
}

const COPIED = 'api_key_id, team_id, dialect, requested_model, served_model, provider, status, error_type, input_tokens, output_tokens, cached_tokens, cost_usd, latency_ms, streamed, cache, saved_usd';
const COPY_DAY = `INSERT INTO $table (request_id, created_at, ${COPIED})
  SELECT 'req_' || $1 || substr(request_id, 6), $2::timestamptz + (created_at - 'epoch'::timestamptz), ${COPIED} FROM bench_day_template`;

/** The rows of each day, as `load` writes them: [day index, first instant, count, span in ms]. */
function dayPlan(o) {
  const today = Math.floor(o.now.getTime() / DAY_MS) * DAY_MS;
  const first = today - (o.days - 1) * DAY_MS;
  const perDay = Math.ceil(o.rows / o.days);
  return Array.from({ length: o.days }, (_, day) => {
    const from = first + day * DAY_MS;
    const isToday = day === o.days - 1;
    const span = isToday && !o.todayRows ? o.now.getTime() - from : DAY_MS;
    const count = isToday && o.todayRows ? o.todayRows : span === DAY_MS ? perDay : Math.max(1, Math.round((perDay * span) / DAY_MS));
    return [day, new Date(from), count, span];
  });
}

/** The indexes of request_log the reports, budget seeding and export read (decision 0007's). */
const READ_INDEXES = ['(created_at)', '(api_key_id, created_at) INCLUDE (cost_usd)', '(team_id, created_at) INCLUDE (cost_usd) WHERE team_id IS NOT NULL'];

/**
 * LEDGER_LOAD=staged: each month still empty is written into a table of its own with no index,
 * its indexes are then built by sorting (READ_INDEXES only) and it replaces the empty partition
 * (ATTACH reuses indexes that match the parent's by definition). Several times faster than
 * inserting row by row through eight indexes on a shared machine; the same rows.
 */
async function loadStaged(dataSource, usage, o) {
  const plan = dayPlan(o);
  const first = plan[0][1];
  const last = plan[plan.length - 1][1];
  await preparePartitions(dataSource, usage, first, new Date(last.getTime() + DAY_MS), false);
  const started = performance.now();
  const free = [];
  const template = { count: plan[0][2] };
  if (o.template) {
    // One day generated once (at the epoch), copied to each full day with fresh ids: the random
    // draws cost more than the writes on a shared machine. Every day then has the same rows.
    await dataSource.query('DROP TABLE IF EXISTS bench_day_template');
    await dataSource.query('CREATE UNLOGGED TABLE bench_day_template (LIKE request_log INCLUDING DEFAULTS INCLUDING GENERATED)');
    await dataSource.query(INSERT_DAY.replace('$table', 'bench_day_template'), ['T', new Date(0), template.count, DAY_MS]);
  }
  for (let month = ledgerMonth(first); month.from <= last; month = ledgerMonth(month.to)) {
    const [{ filled }] = await dataSource.query(`SELECT EXISTS (SELECT 1 FROM ${month.name}) AS filled`);
    if (filled) continue;
    const stage = `${month.name}_stage`;
    await dataSource.query(`DROP TABLE IF EXISTS ${stage}`);
    await dataSource.query(`CREATE ${o.unlogged ? 'UNLOGGED ' : ''}TABLE ${stage} (LIKE request_log INCLUDING DEFAULTS INCLUDING GENERATED)`);
    for (const [day, from, count, span] of plan.filter(([, from]) => from >= month.from && from < month.to)) {
      if (o.template && count === template.count && span === DAY_MS) await dataSource.query(COPY_DAY.replace('$table', stage), [String(day), from]);
      else await dataSource.query(INSERT_DAY.replace('$table', stage), [String(day), from, count, span]);
    }
    await dataSource.query("SET maintenance_work_mem = '512MB'");
    for (const index of READ_INDEXES) await dataSource.query(`CREATE INDEX ON ${stage} ${index}`);
    const bounds = `FROM ('${month.from.toISOString()}') TO ('${month.to.toISOString()}')`;
    await dataSource.query(`ALTER TABLE ${stage} ADD CONSTRAINT ${stage}_range CHECK (created_at >= '${month.from.toISOString()}' AND created_at < '${month.to.toISOString()}')`);
    await dataSource.query(`DROP TABLE ${month.name}`);
    await dataSource.query(`ALTER TABLE ${stage} RENAME TO ${month.name}`);
    await dataSource.query(`ALTER TABLE request_log ATTACH PARTITION ${month.name} FOR VALUES ${bounds}`);
    const gb = freeGigabytes();
    free.push(gb);
    o.log(`loaded ${month.name}, ${gb} GB free`);
    if (gb < o.minFreeGb) throw new Error(`stopped: ${gb} GB free on disk, under ${o.minFreeGb}`);
  }
  return { first, insertSeconds: Number(((performance.now() - started) / 1000).toFixed(1)), minFreeGb: Math.min(...free) };
}

module.exports = { load, loadStaged, freeGigabytes, DAY_MS };
