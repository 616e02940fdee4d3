#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The partitioned ledger at scale (decision 0027, docs/benchmarks/2026-11-29-ledger-scale.md and
// 2026-11-29-ledger-100m.md): a database of its own on the machine's PostgreSQL, migrated and
// loaded (bench/lib/ledger-scale-load.js); then every report the dashboard and /admin/usage serve
// (bench/lib/ledger-scale-cases.js), through the repository: read raw (before any rollup), from the
// daily and hourly rollups, and from the daily rollup alone (as before the hourly one), with the
// answers compared; the rollups' own cost, budget seeding and the NDJSON export's read path.
// Not part of `npm test`.
//
// Options (env): LEDGER_ROWS (10000000), LEDGER_DAYS (90), LEDGER_TODAY_ROWS (today filled whole
// at this many rows a day; default: today up to now at the others' rate), LEDGER_CLOCKS (times of
// today to report as of, e.g. "06:10,23:50", the last also for the raw reads; default now),
// LEDGER_DATABASE (a named database, kept; default a scratch one, dropped), LEDGER_PHASE (all, load,
// measure), LEDGER_UNLOGGED=1 (unlogged partitions), LEDGER_MIN_FREE_GB (12: the load stops under
// it), LEDGER_RUNS (5), LEDGER_RAW_RUNS (1), LEDGER_RAW_WARMUP (1; 0 for none), LEDGER_SPEND=0,
// BENCH_DATABASE_URL (the server's `postgres` database).
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const os = require('node:os');
const { Client } = require('pg');
const { createDataSource, migrate } = require('../dist/libs/persistence/src');
const usage = require('../dist/libs/usage/src');
const { load, loadStaged, freeGigabytes, DAY_MS } = require('./lib/ledger-scale-load');
const { timed, timeReports, differences, seconds } = require('./lib/ledger-scale-cases');

const env = process.env;
const ROWS = Number(env.LEDGER_ROWS || 10_000_000);
const DAYS = Number(env.LEDGER_DAYS || 90);
const PHASE = env.LEDGER_PHASE || 'all';
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = Number(env.LEDGER_RUNS || 5);
const ROLLUP_TABLES = ['daily', 'hourly'].flatMap((unit) => ['', '_keys', '_models'].map((grain) => `request_log_${unit}${grain}`));
const log = (text) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);
const context = () => ({ at: new Date().toISOString(), loadavg: os.loadavg().map((n) => Number(n.toFixed(2))), freeGb: freeGigabytes() });

/** The instants reports are timed as of: today's given clock times, or now. */
function clocks(now) {
  if (!env.LEDGER_CLOCKS) return [now];
  const midnight = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return env.LEDGER_CLOCKS.split(',').map((hhmm) => {
    const [h, m] = hhmm.split(':').map(Number);
    return new Date(midnight + (h * 60 + m) * 60_000);
  });
}

async function loadPhase(dataSource, out, now) {
  const todayRows = env.LEDGER_TODAY_ROWS ? Number(env.LEDGER_TODAY_ROWS) : undefined;
  const options = { rows: ROWS, days: DAYS, todayRows, now, unlogged: env.LEDGER_UNLOGGED === '1', template: env.LEDGER_TEMPLATE === '1', minFreeGb: Number(env.LEDGER_MIN_FREE_GB || 12), log };
  out.load = { before: context(), mode: env.LEDGER_LOAD || 'rows', template: options.template, unlogged: options.unlogged, todayRows: todayRows ?? null };
  const { insertSeconds, minFreeGb } = await (env.LEDGER_LOAD === 'staged' ? loadStaged : load)(dataSource, usage, options);
  let started = performance.now();
  await dataSource.query('ANALYZE request_log');
  out.load.analyzeSeconds = seconds(started);
  const [size] = await dataSource.query(
    "SELECT count(*)::bigint AS n, pg_size_pretty(sum(pg_total_relation_size(inhrelid))) AS size FROM pg_inherits WHERE inhparent = 'request_log'::regclass",
  );
  started = performance.now();
  const [{ n }] = await dataSource.query('SELECT count(*)::bigint AS n FROM request_log');
  Object.assign(out.load, { rows: Number(n), countSeconds: seconds(started), insertSeconds, rowsPerSecond: Math.round(Number(n) / insertSeconds), partitions: Number(size.n), size: size.size, minFreeGb, after: context() });
  log(`loaded ${n} rows in ${insertSeconds} s, ${size.size}`);
}

async function measurePhase(dataSource, out, now) {
  const rollups = new usage.LedgerRollupRepository(dataSource);
  const hourly = new usage.LedgerHoursRepository(dataSource);
  const reports = new usage.UsageReportRepository(dataSource, rollups, hourly);
  const maintenance = new usage.LedgerMaintenanceService(new usage.LedgerPartitionsRepository(dataSource), rollups, hourly, {}, { debug: () => undefined, info: () => undefined, warn: log });
  const key = (await dataSource.query("SELECT md5('key' || 0)::uuid AS id"))[0].id; // the busiest key
  const at = clocks(now);
  const late = at[at.length - 1];
  const label = (clock) => clock.toISOString().slice(11, 16);
  out.clocks = at.map(label);
  await dataSource.query(`TRUNCATE request_log_days, request_log_hours, ${ROLLUP_TABLES.join(', ')}`);

  out.raw = { context: context() };
  const raw = await timeReports(reports, late, key, { runs: Number(env.LEDGER_RAW_RUNS || 1), warm: env.LEDGER_RAW_WARMUP !== '0', log, tag: `raw ${label(late)}` });
  Object.assign(out.raw, { clock: label(late), seconds: raw.timings, rows: raw.rows });

  let started = performance.now();
  const run = await maintenance.run(late);
  out.rollup = { context: context(), days: run.rolled.length, hours: run.hours.length, seconds: seconds(started) };
  out.rollup.rows = {};
  for (const table of [...ROLLUP_TABLES, 'request_log_days', 'request_log_hours']) {
    await dataSource.query(`VACUUM ANALYZE ${table}`);
    out.rollup.rows[table] = Number((await dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);
  }
  log(`rolled ${run.rolled.length} days and ${run.hours.length} hours in ${out.rollup.seconds} s`);

  out.hourly = {};
  const hourlyAnswers = {};
  for (const clock of at) {
    const t = await timeReports(reports, clock, key, { runs: RUNS, warm: true, log, tag: `daily+hourly ${label(clock)}` });
    hourlyAnswers[label(clock)] = t;
    out.hourly[label(clock)] = { context: context(), seconds: t.timings, rows: t.rows };
  }
  out.differences = { rawVsHourly: differences(raw, hourlyAnswers[label(late)]) };

  const yesterday = new Date(late.getTime() - DAY_MS).toISOString().slice(0, 10);
  started = performance.now();
  await rollups.rollDay({ day: yesterday, dropped: false });
  out.rollup.oneDaySeconds = seconds(started);
  started = performance.now();
  await hourly.rollHour(new Date(Math.floor(late.getTime() / 3_600_000) * 3_600_000 - 3_600_000));
  out.rollup.oneHourSeconds = seconds(started);

  // Without the hourly rollup (as before it): closed days from the daily rollup, all of today from its rows.
  await dataSource.query('TRUNCATE request_log_hours, request_log_hourly, request_log_hourly_keys, request_log_hourly_models');
  out.dailyOnly = {};
  out.differences.hourlyVsDailyOnly = {};
  for (const clock of at) {
    const t = await timeReports(reports, clock, key, { runs: Number(env.LEDGER_OLD_RUNS || 3), warm: true, log, tag: `daily only ${label(clock)}` });
    out.dailyOnly[label(clock)] = { context: context(), seconds: t.timings };
    out.differences.hourlyVsDailyOnly[label(clock)] = differences(hourlyAnswers[label(clock)], t);
  }
  out.identical = out.differences.rawVsHourly.length === 0 && Object.values(out.differences.hourlyVsDailyOnly).every((d) => d.length === 0);
  await sidePaths(dataSource, out, late, key);
}

/** Budget seeding for the busiest key, and the export's read path over one day. */
async function sidePaths(dataSource, out, now, key) {
  const spend = new usage.UsageRepository(dataSource);
  // Reads every row of the busiest key (8 % of the ledger) by its covering index: skipped with
  // LEDGER_SPEND=0 where no VACUUM has set the visibility map (each index entry then visits the heap).
  if (env.LEDGER_SPEND !== '0') out.spentSinceBusiestKeyTotal = (await timed(1, () => spend.spentSince('key', key, new Date(0)), false)).seconds;
  const day = { since: new Date(now.getTime() - 2 * DAY_MS), until: new Date(now.getTime() - DAY_MS) };
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  for await (const page of spend.exportPages(day)) {
    rows += page.length;
    bytes += page.reduce((sum, row) => sum + JSON.stringify(row).length + 1, 0);
  }
  const exportSeconds = seconds(started);
  out.export = { rows, megabytes: Number((bytes / 1024 ** 2).toFixed(1)), seconds: exportSeconds, rowsPerSecond: Math.round(rows / exportSeconds) };
  log(`exported ${rows} rows in ${exportSeconds} s`);
}

async function main() {
  const name = env.LEDGER_DATABASE || `rosetta_bench_ledger_${randomBytes(4).toString('hex')}`;
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('LEDGER_DATABASE: lower-case letters, digits and _ only');
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
  if (!exists) await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const dataSource = createDataSource({ url: url.toString(), dataDir: '', entities: [] });
  await dataSource.initialize();
  const out = { database: name, rows: ROWS, days: DAYS, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 1024 ** 3) };
  try {
    await migrate(dataSource);
    out.postgres = (await dataSource.query('SHOW server_version'))[0].server_version;
    const now = new Date();
    if (PHASE !== 'measure') await loadPhase(dataSource, out, now);
    if (PHASE !== 'load') await measurePhase(dataSource, out, now);
  } finally {
    await dataSource.destroy();
    if (!env.LEDGER_DATABASE || env.LEDGER_DROP === '1') await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
