/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The systems under test, each in its own child process: the upstream simulator, Rosetta as it
// runs in production (built dist/, a fresh PostgreSQL database, Redis, auth and limits on), and the
// peer gateway (@portkey-ai/gateway) routed to the same simulator. Also the fresh database and an
// empty Redis database index, both removed afterwards.
const { join } = require('node:path');
const { Client } = require('pg');
const Redis = require('ioredis');
const { startChild, stopChild, freePort, httpRequest, waitForHttp } = require('./proc');

const ROOT = join(__dirname, '..', '..');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const SIM_KEY = 'sk-bench-simulator';

function baseEnv() {
  // Only what a process needs; none of the caller's provider credentials leak into the children.
  const keep = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'NODE_EXTRA_CA_CERTS'];
  const env = {};
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

// ---------------------------------------------------------------- database

function adminDatabaseUrl() {
  return process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

async function createDatabase() {
  const name = `rosetta_bench_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
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
 * limiter and health keys neither mix with another gateway's nor survive the run.
 */
async function claimRedisDb() {
  const base = process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379';
  const candidates = process.env.BENCH_REDIS_DB ? [Number(process.env.BENCH_REDIS_DB)] : [15, 14, 13, 12, 11, 10, 9, 8];
  for (const db of candidates) {
    const client = new Redis(`${base}/${db}`, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await client.connect();
      const size = await client.dbsize();
      const info = await client.info('server');
      if (size === 0) {
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
  const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    await client.flushdb();
  } finally {
    client.disconnect();
  }
}

// ---------------------------------------------------------------- processes

/** The upstream simulator with a fixed latency and request recording off (bench/sim.js). */
async function startSimulator({ latencyMs }) {
  const env = { ...baseEnv(), SIM_PORT: '0', SIM_HOST: '127.0.0.1', SIM_LATENCY_MS: String(latencyMs), SIM_TOKENS_PER_SECOND: '0' };
  const handle = startChild('simulator', process.execPath, [join(__dirname, '..', 'sim.js')], { env, cwd: ROOT });
  const line = await handle.waitForLine(/simulator listening/, 15_000);
  const { url, port } = JSON.parse(line);
  return { handle, url, port, pid: handle.pid };
}

/** Rosetta from dist/, as in production; `nodeArgs` e.g. ['--cpu-prof', ...] for profiling. */
async function startRosetta({ simUrl, databaseUrl, redisUrl, nodeArgs = [], keyFields = {} }) {
  const port = await freePort();
  const env = {
    ...baseEnv(),
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
    OPENAI_BASE_URL: `${simUrl}/v1`,
    OPENAI_API_KEY: SIM_KEY,
    ANTHROPIC_BASE_URL: simUrl,
    ANTHROPIC_API_KEY: SIM_KEY,
    GEMINI_BASE_URL: simUrl,
    GEMINI_API_KEY: SIM_KEY,
    SHUTDOWN_GRACE_MS: '2000',
  };
  const handle = startChild('rosetta', process.execPath, [...nodeArgs, join(ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js')], { env, cwd: ROOT });
  const url = `http://127.0.0.1:${port}`;
  const ready = await waitForHttp(`${url}/readyz`, (r) => r.status === 200, 60_000, handle);
  const key = await createKey(url, keyFields);
  return { handle, url, port, pid: handle.pid, key, readiness: JSON.parse(ready.body) };
}

/**
 * An enterprise key (unlimited RPM/TPM; auth and the limiter still run on every request);
 * `fields` may add per-key limits, e.g. {rpm, tpm}.
 */
async function createKey(url, fields = {}) {
  const response = await httpRequest(`${url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', plan: 'enterprise', ...fields }),
  });
  if (response.status !== 201 && response.status !== 200) throw new Error(`POST /admin/keys: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  const { key } = JSON.parse(response.body);
  if (!key) throw new Error(`POST /admin/keys returned no key: ${response.body.slice(0, 300)}`);
  return key;
}

/** @portkey-ai/gateway's own Node server (build/start-server.js), headless, production. */
async function startPortkey() {
  const port = await freePort();
  const entry = require.resolve('@portkey-ai/gateway/build/start-server.js', { paths: [ROOT] });
  const env = { ...baseEnv(), NODE_ENV: 'production' };
  const args = ['-r', join(__dirname, '..', 'peer-preload.cjs'), entry, `--port=${port}`, '--headless'];
  const handle = startChild('portkey', process.execPath, args, { env, cwd: ROOT });
  const url = `http://127.0.0.1:${port}`;
  // Any HTTP answer means it is listening (GET / is its banner).
  await waitForHttp(`${url}/`, (r) => r.status > 0, 30_000, handle);
  return { handle, url, port, pid: handle.pid };
}

/** The floor proxy (bench/floor-proxy.js) in front of the simulator. */
async function startFloor({ simUrl }) {
  const env = { ...baseEnv(), NODE_ENV: 'production', FLOOR_UPSTREAM: simUrl, FLOOR_PORT: '0' };
  const handle = startChild('floor', process.execPath, [join(__dirname, '..', 'floor-proxy.js')], { env, cwd: ROOT });
  const line = await handle.waitForLine(/floor listening/, 15_000);
  const { port } = JSON.parse(line);
  return { handle, url: `http://127.0.0.1:${port}`, port, pid: handle.pid };
}

// ---------------------------------------------------------------- targets

const PROMPT = 'Say hello to the benchmark in one short sentence.';

/**
 * The OpenAI-protocol targets compared throughout: direct, Rosetta, Portkey, and (when started)
 * the floor proxy.
 */
function openAiTargets({ sim, rosetta, portkey, floor }, { stream = false, prompt = PROMPT } = {}) {
  const extra = stream ? { stream: true } : {};
  const upstreamBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }], ...extra });
  const json = { 'content-type': 'application/json' };
  return [
    { name: 'direct', url: `${sim.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${SIM_KEY}` }, body: upstreamBody, pid: sim.pid },
    {
      name: 'rosetta',
      url: `${rosetta.url}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${rosetta.key}` },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: prompt }], ...extra }),
      pid: rosetta.pid,
    },
    {
      name: 'portkey',
      url: `${portkey.url}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${SIM_KEY}`, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${sim.url}/v1` },
      body: upstreamBody,
      pid: portkey.pid,
    },
    ...(floor
      ? [{ name: 'floor', url: `${floor.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${SIM_KEY}` }, body: upstreamBody, pid: floor.pid }]
      : []),
  ];
}

const MODELS = { openai: 'rosetta/gpt-4o-mini', anthropic: 'rosetta/claude-haiku-4-5', gemini: 'rosetta/gemini-2.5-flash' };

/** A request in dialect A/B/C to Rosetta for a model served over `protocol`. */
function dialectTarget(rosetta, dialect, protocol) {
  const model = MODELS[protocol];
  const name = `${dialect}->${protocol}`;
  if (dialect === 'A') {
    return {
      name, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  if (dialect === 'B') {
    return {
      name, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/messages`,
      headers: { 'content-type': 'application/json', 'x-api-key': rosetta.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  return {
    name, dialect, protocol, pid: rosetta.pid,
    url: `${rosetta.url}/v1beta/models/${model}:generateContent`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': rosetta.key },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
  };
}

/** The simulator spoken to directly in each protocol: the baseline for the dialect matrix. */
function directProtocolTarget(sim, protocol) {
  const name = `direct ${protocol}`;
  if (protocol === 'openai') {
    return {
      name, protocol, pid: sim.pid,
      url: `${sim.url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SIM_KEY}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  if (protocol === 'anthropic') {
    return {
      name, protocol, pid: sim.pid,
      url: `${sim.url}/v1/messages`,
      headers: { 'content-type': 'application/json', 'x-api-key': SIM_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  return {
    name, protocol, pid: sim.pid,
    url: `${sim.url}/v1beta/models/gemini-2.5-flash:generateContent`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': SIM_KEY },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
  };
}

/** One request per target before measuring: a 2xx with the expected shape, else stop the run. */
async function preflight(target) {
  const response = await httpRequest(target.url, { method: 'POST', headers: target.headers, body: target.body, timeoutMs: 15_000 });
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`preflight ${target.name}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  }
  if (!/Simulated reply|"text"|"content"/.test(response.body)) {
    throw new Error(`preflight ${target.name}: unexpected body ${response.body.slice(0, 300)}`);
  }
  return response;
}

module.exports = {
  ROOT,
  createDatabase,
  dropDatabase,
  databaseVersion,
  claimRedisDb,
  releaseRedisDb,
  startSimulator,
  startRosetta,
  startPortkey,
  startFloor,
  stopChild,
  openAiTargets,
  dialectTarget,
  directProtocolTarget,
  preflight,
  MODELS,
};
