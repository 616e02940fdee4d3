#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// GET /admin/usage paged (decision 0034), timed over HTTP against a ledger loaded by
// bench/ledger-scale.js (LEDGER_PHASE=load): the default day,key,model week's first page, every
// page after it and a page in the middle, the largest page, and the CSV export's first byte and
// total (docs/benchmarks/2026-11-29-usage-paging.md). Not part of `npm test`.
//
// It migrates the database and rolls the ledger up (the gateway's maintenance) with this build,
// then starts a gateway — this build's, or another's with USAGE_GATEWAY (the `dist/` of a build
// from before paging, to time the unpaged answer on the same data) — and asks it.
//
// Options (env): LEDGER_DATABASE (required: the loaded database), USAGE_GATEWAY (a dist/
// directory; default ./dist), USAGE_ROLLUP=0 (skip the maintenance run: already rolled),
// USAGE_RUNS (3: best of, after a warm-up), BENCH_DATABASE_URL (the server's `postgres` database).
require('reflect-metadata');
const { spawn } = require('node:child_process');
const os = require('node:os');
const { join, resolve } = require('node:path');
const { createDataSource, migrate } = require('../dist/libs/persistence/src');
const usage = require('../dist/libs/usage/src');

const env = process.env;
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = Number(env.USAGE_RUNS || 3);
const TOKEN = 'bench-admin-token-0123456789abcdef';
const log = (text) => process.stderr.write(`${new Date().toISOString()} ${text}\n`);
const seconds = (started) => Number(((performance.now() - started) / 1000).toFixed(3));
const context = () => ({ at: new Date().toISOString(), loadavg: os.loadavg().map((n) => Number(n.toFixed(2))) });

function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Migrates with this build and runs the ledger maintenance once (rolls every closed day and hour). */
async function prepare(url, out) {
  const dataSource = createDataSource({ url, dataDir: '', entities: [] });
  await dataSource.initialize();
  try {
    let started = performance.now();
    await migrate(dataSource);
    out.migrateSeconds = seconds(started);
    if (env.USAGE_ROLLUP !== '0') {
      const rollups = new usage.LedgerRollupRepository(dataSource);
      const hourly = new usage.LedgerHoursRepository(dataSource);
      const maintenance = new usage.LedgerMaintenanceService(new usage.LedgerPartitionsRepository(dataSource), rollups, hourly, {}, { debug: () => undefined, info: () => undefined, warn: log });
      started = performance.now();
      const run = await maintenance.run(new Date());
      out.rollup = { days: run?.rolled.length ?? 0, hours: run?.hours.length ?? 0, seconds: seconds(started) };
      log(`rolled ${out.rollup.days} days and ${out.rollup.hours} hours in ${out.rollup.seconds} s`);
    }
    await dataSource.query('ANALYZE request_log_daily, request_log_daily_keys, request_log_daily_models, request_log_hourly, request_log_hourly_keys, request_log_hourly_models');
    out.rows = Number((await dataSource.query('SELECT count(*)::bigint AS n FROM request_log'))[0].n);
  } finally {
    await dataSource.destroy();
  }
}

/** The gateway of `dist` on an ephemeral port, on the loaded database; resolves once it listens. */
function startGateway(dist, url) {
  const child = spawn(process.execPath, [join(dist, 'apps/gateway/src/main.js')], {
    cwd: resolve(dist, '..'),
    env: { PATH: env.PATH, HOME: env.HOME, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ADMIN_TOKEN: TOKEN, DATABASE_URL: url, SECRETS_KEY: '3f'.repeat(32) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start:\n${output}`)), 120_000);
    const onData = (chunk) => {
      output += chunk.toString();
      const match = /"port":(\d+)[^\n]*"msg":"listening"/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePort({ url: `http://127.0.0.1:${match[1]}`, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`gateway exited with ${code}:\n${output}`)));
  });
}

/** One GET, read to the end: time to the first body byte, total, bytes, and the body. */
async function timedGet(url) {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
  const reader = response.body.getReader();
  const chunks = [];
  let firstByte;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    firstByte ??= seconds(started);
    chunks.push(Buffer.from(value));
  }
  const body = Buffer.concat(chunks);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${body.toString().slice(0, 300)}`);
  return { firstByte: firstByte ?? seconds(started), total: seconds(started), bytes: body.length, body };
}

/** Best of RUNS after a warm-up, by total time; with the last answer. */
async function best(url) {
  let last = await timedGet(url);
  let fastest;
  for (let i = 0; i < RUNS; i += 1) {
    last = await timedGet(url);
    if (!fastest || last.total < fastest.total) fastest = last;
  }
  return { firstByte: fastest.firstByte, total: fastest.total, bytes: fastest.bytes, last };
}

const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { pages: times.length, min: sorted[0], median: at(0.5), p90: at(0.9), max: sorted[sorted.length - 1], sum: Number(times.reduce((a, b) => a + b, 0).toFixed(2)) };
};

async function measure(base, out) {
  const first = await best(`${base}/admin/usage`);
  const answer = JSON.parse(first.last.body.toString());
  const paged = 'has_more' in answer;
  out.paged = paged;
  out.window = { from: answer.from, to: answer.to };
  out.firstAnswer = { seconds: first.total, firstByte: first.firstByte, bytes: first.bytes, groups: answer.data.length, has_more: answer.has_more ?? false };
  log(`/admin/usage: ${first.total} s, ${answer.data.length} groups${paged ? ' (a page)' : ''}`);
  const window = `from=${encodeURIComponent(answer.from)}&to=${encodeURIComponent(answer.to)}`;
  if (paged) {
    // Every page once, in order, each by its cursor alone (what a client paging through does).
    const times = [];
    const cursors = [];
    let groups = answer.data.length;
    for (let next = answer.next_cursor; next; ) {
      cursors.push(next);
      const page = await timedGet(`${base}/admin/usage?cursor=${next}`);
      times.push(page.total);
      const body = JSON.parse(page.body.toString());
      groups += body.data.length;
      next = body.next_cursor;
    }
    out.laterPages = { ...summary(times), groups, context: context() };
    log(`later pages: ${JSON.stringify(out.laterPages)}`);
    const middle = cursors[Math.floor(cursors.length / 2)];
    const middlePage = await best(`${base}/admin/usage?cursor=${middle}`);
    out.middlePage = { index: Math.floor(cursors.length / 2) + 1, seconds: middlePage.total, firstByte: middlePage.firstByte, bytes: middlePage.bytes };
    const lastPage = await best(`${base}/admin/usage?cursor=${cursors[cursors.length - 1]}`);
    out.lastPage = { index: cursors.length, seconds: lastPage.total, bytes: lastPage.bytes };
    const largest = await best(`${base}/admin/usage?${window}&limit=10000`);
    out.largestPage = { seconds: largest.total, firstByte: largest.firstByte, bytes: largest.bytes };
    log(`middle page ${out.middlePage.seconds} s, last ${out.lastPage.seconds} s, 10,000 groups ${out.largestPage.seconds} s`);
  }
  const csv = await best(`${base}/admin/usage?${window}&format=csv`);
  const lines = csv.last.body.toString().split('\r\n').length - 2;
  out.csv = { firstByte: csv.firstByte, seconds: csv.total, bytes: csv.bytes, groups: lines, context: context() };
  log(`CSV: first byte ${csv.firstByte} s, total ${csv.total} s, ${lines} groups`);
}

async function main() {
  const name = env.LEDGER_DATABASE;
  if (!name || !/^[a-z0-9_]+$/.test(name)) throw new Error('LEDGER_DATABASE: the loaded database (lower-case letters, digits and _)');
  const url = databaseUrl(name);
  const dist = resolve(env.USAGE_GATEWAY || join(__dirname, '..', 'dist'));
  const out = { database: name, gateway: dist, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGb: Math.round(os.totalmem() / 1024 ** 3), runs: RUNS, before: context() };
  await prepare(url, out);
  const gateway = await startGateway(dist, url);
  try {
    await measure(gateway.url, out);
  } finally {
    await gateway.stop();
  }
  out.after = context();
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
