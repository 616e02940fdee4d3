#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The partitioned ledger at scale (decision 0027, docs/benchmarks/2026-11-29-ledger-scale.md): a
// scratch database on the machine's PostgreSQL, migrated; LEDGER_ROWS rows written with
// generate_series straight into their monthly partitions, one statement per day, over LEDGER_DAYS
// days up to now (2,000 keys with a heavy tail, 50 teams, 10 models, 3 providers, 2 % errors, 5 %
// cache hits); then /admin/usage's query for each group_by read raw (before any rollup) and from
// the rollup, the rollup's own cost, and the NDJSON export's read path. Not part of `npm test`.
//
// Options (env): LEDGER_ROWS (10000000), LEDGER_DAYS (90), BENCH_DATABASE_URL (the server's
// `postgres` database; a scratch database is created beside it and dropped), LEDGER_KEEP=1 keeps it.
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { createDataSource, migrate, ledgerMonth } = require('../dist/libs/persistence/src');
const usage = require('../dist/libs/usage/src');

const ROWS = Number(process.env.LEDGER_ROWS || 10_000_000);
const DAYS = Number(process.env.LEDGER_DAYS || 90);
const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DAY_MS = 86_400_000;

const seconds = (started) => Number(((performance.now() - started) / 1000).toFixed(3));
const log = (text) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);

/** Best of `runs` (after one warm-up), in seconds, and what the last run returned. */
async function timed(runs, work) {
  let result = await work();
  let best = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    result = await work();
    best = Math.min(best, seconds(started));
  }
  return { seconds: best, result };
}

async function seed(dataSource, now) {
  const first = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS - (DAYS - 1) * DAY_MS);
  const partitions = new usage.LedgerPartitionsRepository(dataSource);
  for (let month = ledgerMonth(first); month.from < now; month = ledgerMonth(month.to)) await partitions.createMonth(month);
  const perDay = Math.ceil(ROWS / DAYS);
  const started = performance.now();
  for (let day = 0; day < DAYS; day += 1) {
    const from = new Date(first.getTime() + day * DAY_MS);
    // Today only up to now: the live part a report merges is today's rows so far.
    const span = Math.min(DAY_MS, now.getTime() - from.getTime());
    await dataSource.query(
      `INSERT INTO request_log (request_id, api_key_id, team_id, dialect, requested_model, served_model, provider, status, error_type, input_tokens,
         output_tokens, cached_tokens, cost_usd, latency_ms, streamed, created_at, cache, saved_usd)
       SELECT 'req_' || $1 || '_' || i, md5('key' || k)::uuid, md5('team' || (k % 50))::uuid, 'openai', 'rosetta/model-' || m, 'rosetta/model-' || m,
              (ARRAY['openai', 'anthropic', 'gemini'])[1 + m % 3], CASE WHEN r < 0.02 THEN 502 ELSE 200 END, CASE WHEN r < 0.02 THEN 'upstream_error' END,
              200 + (r * 2000)::int, 50 + (r * 500)::int, CASE WHEN m < 3 THEN (r * 100)::int ELSE 0 END,
              CASE WHEN r > 0.95 THEN 0 ELSE (0.0000015 * (1 + m)) * (200 + r * 2000) END, 300 + (r * 3000)::int, r > 0.5,
              $2::timestamptz + (i::float8 / $3) * $4 * interval '1 millisecond', CASE WHEN r > 0.95 THEN 'hit' END,
              CASE WHEN r > 0.95 THEN (0.0000015 * (1 + m)) * (200 + r * 2000) END
         FROM (SELECT i, floor(2000 * power(random(), 3))::int AS k, floor(random() * 10)::int AS m, random() AS r FROM generate_series(1, $3) i) g`,
      [String(day), from, span === DAY_MS ? perDay : Math.max(1, Math.round((perDay * span) / DAY_MS)), span],
    );
    if (day % 10 === 9) log(`seeded ${day + 1}/${DAYS} days`);
  }
  const inserted = seconds(started);
  await dataSource.query('VACUUM ANALYZE request_log');
  return { first, insertSeconds: inserted };
}

async function main() {
  const name = `rosetta_bench_ledger_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataSource = createDataSource({ url: url.toString(), dataDir: '', entities: [] });
  await dataSource.initialize();
  const out = { rows: ROWS, days: DAYS, postgres: null, timings: {} };
  try {
    await migrate(dataSource);
    out.postgres = (await dataSource.query('SHOW server_version'))[0].server_version;
    const now = new Date();
    const { insertSeconds } = await seed(dataSource, now);
    const [size] = await dataSource.query("SELECT count(*)::bigint AS n, pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size FROM pg_inherits WHERE inhparent = 'request_log'::regclass");
    out.seed = { insertSeconds, rowsPerSecond: Math.round(ROWS / insertSeconds), partitions: Number(size.n), size: size.size };
    log(`seeded ${ROWS} rows in ${insertSeconds} s`);

    const rollups = new usage.LedgerRollupRepository(dataSource);
    const reports = new usage.UsageReportRepository(dataSource, rollups);
    const key = (await dataSource.query("SELECT md5('key' || 0)::uuid AS id"))[0].id; // the busiest key
    const cases = [
      ['group_by=day, 30 days', { groupBy: ['day'], days: 30 }],
      ['group_by=key, 30 days', { groupBy: ['key'], days: 30 }],
      ['group_by=team, 30 days', { groupBy: ['team'], days: 30 }],
      ['group_by=model, 30 days', { groupBy: ['model'], days: 30 }],
      ['group_by=provider, 30 days', { groupBy: ['provider'], days: 30 }],
      ['default (day,key,model), 7 days', { groupBy: ['day', 'key', 'model'], days: 7 }],
      ['group_by=model,day, busiest key, 30 days', { groupBy: ['model', 'day'], days: 30, apiKeyId: key }],
      ['group_by=key, 90 days', { groupBy: ['key'], days: 90 }],
      ['group_by=hour, 1 day (raw rows always)', { groupBy: ['hour'], days: 1 }],
    ];
    const filterOf = ({ days, ...rest }) => ({ ...rest, from: new Date(now.getTime() - days * DAY_MS), to: now });
    const rawRuns = Number(process.env.LEDGER_RAW_RUNS || 1);
    out.timings.raw = {};
    for (const [label, c] of cases) {
      out.timings.raw[label] = (await timed(rawRuns, () => reports.report(filterOf(c)))).seconds;
      log(`raw ${label}: ${out.timings.raw[label]} s`);
    }
    const raw = {};
    for (const [label, c] of cases) raw[label] = await reports.report(filterOf(c));

    const maintenance = new usage.LedgerMaintenanceService(new usage.LedgerPartitionsRepository(dataSource), rollups, {}, { info: () => undefined, warn: log });
    let started = performance.now();
    const run = await maintenance.run(now);
    out.rollup = { days: run.rolled.length, seconds: seconds(started), rows: Number((await dataSource.query('SELECT count(*) AS n FROM request_log_daily'))[0].n) };
    log(`rolled ${run.rolled.length} days in ${out.rollup.seconds} s`);
    started = performance.now();
    const yesterday = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
    await rollups.rollDay({ day: yesterday, dropped: false });
    out.rollup.oneDaySeconds = seconds(started);
    await dataSource.query('VACUUM ANALYZE request_log_daily');

    out.timings.rollup = {};
    out.identical = true;
    for (const [label, c] of cases) {
      const { seconds: s, result } = await timed(5, () => reports.report(filterOf(c)));
      out.timings.rollup[label] = s;
      if (JSON.stringify(result) !== JSON.stringify(raw[label])) out.identical = false;
      log(`rollup ${label}: ${s} s`);
    }
    const spend = new usage.UsageRepository(dataSource);
    out.timings.spentSinceBusiestKeyTotal = (await timed(3, () => spend.spentSince('key', key, new Date(0)))).seconds;

    // The export's read path: keyset pages serialised as the controller does, one day's rows.
    const day = { since: new Date(now.getTime() - 2 * DAY_MS), until: new Date(now.getTime() - DAY_MS) };
    started = performance.now();
    let rows = 0;
    let bytes = 0;
    for await (const page of spend.exportPages(day)) {
      rows += page.length;
      bytes += page.reduce((sum, row) => sum + JSON.stringify(row).length + 1, 0);
    }
    const exportSeconds = seconds(started);
    out.export = { rows, megabytes: Number((bytes / 1024 ** 2).toFixed(1)), seconds: exportSeconds, rowsPerSecond: Math.round(rows / exportSeconds) };
    log(`exported ${rows} rows in ${exportSeconds} s`);
  } finally {
    await dataSource.destroy();
    if (process.env.LEDGER_KEEP !== '1') await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
