/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The run's own PostgreSQL database and Redis database index, both removed afterwards.
const { Client } = require('pg');
const Redis = require('ioredis');

function adminDatabaseUrl() {
  return process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** A fresh database, `rosetta_bench_<time>_<pid>[_<suffix>]` (suffix: lowercase letters). */
async function createDatabase(suffix = '') {
  const name = `rosetta_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}${/^[a-z]+$/.test(suffix) ? `_${suffix}` : ''}`;
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropDatabase(name) {
  if (!name) return;
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function databaseVersion() {
  const client = new Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    const { rows } = await client.query('SHOW server_version');
    return rows[0].server_version;
  } finally {
    await client.end();
  }
}

// ---------------------------------------------------------------- redis

/**
 * An empty Redis database index (BENCH_REDIS_DB, else the first empty one of 15..8), so the run's
 * limiter and health keys neither mix with another gateway's nor survive the run. The index is
 * marked as taken at once (a `rosetta-bench:claimed` key, set only if absent), so a second claim in
 * the same run (the baseline gateway) or a concurrent run takes another one.
 */
async function claimRedisDb({ exclude = [] } = {}) {
  // BENCH_REDIS=cluster: a three-master cluster of the run's own (the gateway gets REDIS_CLUSTER_NODES).
  if (process.env.BENCH_REDIS === 'cluster') return require('./redis-cluster').startRedisCluster();
  const base = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const candidates = (process.env.BENCH_REDIS_DB && exclude.length === 0 ? [Number(process.env.BENCH_REDIS_DB)] : [15, 14, 13, 12, 11, 10, 9, 8]).filter(
    (db) => !exclude.includes(db),
  );
  for (const db of candidates) {
    const client = new Redis(`${base}/${db}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      const size = await client.dbsize();
      const info = await client.info('server');
      if (size === 0 && (await client.set('rosetta-bench:claimed', String(process.pid), 'NX')) === 'OK') {
        const version = /redis_version:(\S+)/.exec(info);
        return { url: `${base}/${db}`, db, version: version ? version[1] : null };
      }
    } finally {
      client.disconnect();
    }
  }
  throw new Error(`no empty Redis database among ${candidates.join(', ')} at ${base}; set BENCH_REDIS_DB`);
}

/** Deletes every key of the claimed database (it was empty when the run began). */
async function releaseRedisDb(redis) {
  if (!redis) return;
  if (redis.stop) return redis.stop();
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}

module.exports = { createDatabase, dropDatabase, databaseVersion, claimRedisDb, releaseRedisDb };
