#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// What partitioning costs the ledger's writer (decision 0027): the batched insert, 100 rows a
// statement as UsageRecorderService sends them, into the ledger as it was (one table, migrated to
// 1733600000000) and as it is (monthly partitions, the default partition, the stale-day trigger).
// Each batch is timed from the client; the tables start empty and grow to LEDGER_WRITE_BATCHES × 100.
//
// Options (env): LEDGER_WRITE_BATCHES (2000), BENCH_DATABASE_URL (as bench/ledger-scale.js).
require('reflect-metadata');
const { randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { DataSource } = require('typeorm');
const { createDataSource, migrate, MIGRATIONS } = require('../dist/libs/persistence/src');

const BATCHES = Number(process.env.LEDGER_WRITE_BATCHES || 2000);
const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

async function timeBatches(dataSource, conflict) {
  const times = [];
  for (let b = 0; b < BATCHES; b += 1) {
    const started = performance.now();
    await dataSource.query(
      `INSERT INTO request_log (request_id, api_key_id, dialect, requested_model, served_model, provider, status, input_tokens, output_tokens, cost_usd, latency_ms, streamed, created_at)
       SELECT 'req_' || $1 || '_' || i, md5('key' || (i % 50))::uuid, 'openai', 'rosetta/gpt-4o-mini', 'rosetta/gpt-4o-mini', 'openai', 200, 120, 40, 0.000027, 300, false, now()
         FROM generate_series(1, 100) i ON CONFLICT ${conflict} DO NOTHING`,
      [String(b)],
    );
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q) => Number(times[Math.floor(q * (times.length - 1))].toFixed(3));
  return { batches: BATCHES, p50Ms: at(0.5), p90Ms: at(0.9), p99Ms: at(0.99), rowsPerSecond: Math.round((BATCHES * 100) / (times.reduce((s, t) => s + t, 0) / 1000)) };
}

async function withDatabase(work) {
  const name = `rosetta_bench_writes_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await work(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

async function main() {
  const before = await withDatabase(async (url) => {
    const upTo = MIGRATIONS.findIndex((m) => m.name === 'ResponseCache1733600000000');
    const dataSource = new DataSource({ type: 'postgres', url, migrations: MIGRATIONS.slice(0, upTo + 1) });
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
    try {
      return await timeBatches(dataSource, '(request_id)');
    } finally {
      await dataSource.destroy();
    }
  });
  const after = await withDatabase(async (url) => {
    const dataSource = createDataSource({ url, dataDir: '', entities: [] });
    await dataSource.initialize();
    await migrate(dataSource);
    try {
      return await timeBatches(dataSource, '(request_id, created_at)');
    } finally {
      await dataSource.destroy();
    }
  });
  process.stdout.write(`${JSON.stringify({ unpartitioned: before, partitioned: after }, null, 2)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
