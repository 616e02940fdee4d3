/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The systems under test, each in its own child process: the upstream simulator, Rosetta as it
// runs in production (built dist/, a fresh PostgreSQL database, Redis, auth and limits on), and the
// peer gateway (@portkey-ai/gateway) routed to the same simulator. Also the fresh database and an
// empty Redis database index, both removed afterwards.
const os = require('node:os');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync } = require('node:fs');
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
/** BENCH_OTEL: a stand-in OTLP collector (bench/otlp-sink.js) for Rosetta's spans. */
async function startOtlpSink() {
  const handle = startChild('otlp-sink', process.execPath, [join(__dirname, '..', 'otlp-sink.js')], { env: baseEnv(), cwd: ROOT });
  const line = await handle.waitForLine(/otlp sink listening/, 15_000);
  const { url } = JSON.parse(line);
  return { handle, url, pid: handle.pid };
}

async function startSimulator({ latencyMs }) {
  const env = { ...baseEnv(), SIM_PORT: '0', SIM_HOST: '127.0.0.1', SIM_LATENCY_MS: String(latencyMs), SIM_TOKENS_PER_SECOND: '0' };
  const handle = startChild('simulator', process.execPath, [join(__dirname, '..', 'sim.js')], { env, cwd: ROOT });
  const line = await handle.waitForLine(/simulator listening/, 15_000);
  const { url, port } = JSON.parse(line);
  return { handle, url, port, pid: handle.pid };
}

/**
 * Rosetta from dist/, as in production; `nodeArgs` e.g. ['--cpu-prof', ...] for profiling. `root`
 * is the checkout it runs from (default this one; the baseline's worktree for `rosetta-baseline`),
 * also its working directory. `keyKind` chooses the key (see `setupKey`); `keyFields` adds fields
 * to it (e.g. {rpm, tpm}, bench/profile.js). `env` adds variables (BENCH_OTEL's tracing).
 */
async function startRosetta({ simUrl, databaseUrl, redisUrl, nodeArgs = [], keyKind = 'enterprise', keyFields = {}, root = ROOT, name = 'rosetta', env: extraEnv = {} }) {
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
    ...extraEnv,
  };
  const handle = startChild(name, process.execPath, [...nodeArgs, join(root, 'dist', 'apps', 'gateway', 'src', 'main.js')], { env, cwd: root });
  const url = `http://127.0.0.1:${port}`;
  const ready = await waitForHttp(`${url}/readyz`, (r) => r.status === 200, 60_000, handle);
  const keyInfo = await setupKey(url, keyKind, { fields: keyFields });
  return { handle, name, root, url, port, pid: handle.pid, key: keyInfo.key, keyInfo, readiness: JSON.parse(ready.body) };
}

/** The kinds of key `BENCH_KEY` chooses from (`enterprise` is the default). */
const KEY_KINDS = ['enterprise', 'limited', 'budget'];
/** Finite per-key limits no run comes near (~3,000 req/s is 180,000 a minute). */
const KEY_LIMITS = { rpm: 100_000_000, tpm: 2_000_000_000 };
/** A budget no run comes near: a run spends well under $100 of simulated gpt-4o-mini. */
const KEY_BUDGET = { budget_usd: 1_000_000, budget_period: 'month' };

async function adminPost(url, path, body) {
  const response = await httpRequest(`${url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201 && response.status !== 200) throw new Error(`POST ${path}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body);
}

/**
 * The key the load is sent with, on the enterprise plan (auth and the limiter run on every request):
 * - `enterprise`: unlimited RPM/TPM, no budget;
 * - `limited`: finite, never-reached RPM and TPM on the key (both Redis checks run);
 * - `budget`: `limited` plus a per-key dollar budget and a team with its own budget, both far out
 *   of reach, so both budget counters are held and settled on every request.
 * A gateway without budgets (a baseline older than them: no `/admin/teams`) gets `limited` for
 * `budget`; the answer says which kind it got (`kind`) and what was asked (`requested`).
 */
async function setupKey(url, kind = 'enterprise', { fields = {} } = {}) {
  if (!KEY_KINDS.includes(kind)) throw new Error(`unknown key kind '${kind}' (one of ${KEY_KINDS.join(', ')})`);
  const requested = kind;
  if (kind === 'budget' && !(await hasBudgets(url))) kind = 'limited';
  const body = { name: 'bench', plan: 'enterprise', ...(kind === 'enterprise' ? {} : KEY_LIMITS), ...fields };
  let team = null;
  if (kind === 'budget') {
    team = await adminPost(url, '/admin/teams', { name: 'bench-team', ...KEY_BUDGET });
    Object.assign(body, KEY_BUDGET, { team_id: team.id });
  }
  const created = await adminPost(url, '/admin/keys', body);
  if (!created.key) throw new Error(`POST /admin/keys returned no key: ${JSON.stringify(created).slice(0, 300)}`);
  const info = { kind, requested, fallback: kind !== requested, key: created.key, id: created.id, fields: body, teamId: team ? team.id : null };
  if (kind === 'budget') {
    // The gateway must really charge both budgets: /v1/key shows them with this key.
    const described = await describeKey(url, created.key);
    if (!described.budget || !described.team || !described.team.budget) {
      throw new Error(`the bench key has no key or team budget: GET /v1/key ${JSON.stringify(described).slice(0, 300)}`);
    }
  }
  return info;
}

/** Whether the gateway has teams and budgets (GET /admin/teams answers; 404 before they existed). */
async function hasBudgets(url) {
  const response = await httpRequest(`${url}/admin/teams`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (response.status === 200) return true;
  if (response.status === 404) return false;
  throw new Error(`GET /admin/teams: HTTP ${response.status} ${response.body.slice(0, 300)}`);
}

/** GET /v1/key with the key itself: its limits, budgets and spend (gateways with budgets). */
async function describeKey(url, key) {
  const response = await httpRequest(`${url}/v1/key`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`GET /v1/key: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body);
}

/**
 * An enterprise key with `fields` added (kept for callers of the first harness); see `setupKey`.
 */
async function createKey(url, fields = {}) {
  return (await setupKey(url, 'enterprise', { fields })).key;
}

// ---------------------------------------------------------------- baseline

function git(args, options = {}) {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options }).trim();
}

/**
 * `ref` checked out in a temporary git worktree (detached; the main work tree is not touched),
 * sharing this checkout's node_modules through a symlink — or, when its package-lock.json differs
 * (a dependency was added or removed since), with its own `npm ci` — and built with its own
 * `npm run build`.
 * `onStart(dir)` is called as soon as the worktree exists, so a failure or Ctrl-C from then on
 * removes it (`removeBaseline`). Resolves {ref, commit, subject, dir, parent, buildSeconds}.
 */
async function prepareBaseline(ref, { onStart, log = () => {} } = {}) {
  const commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  if (!commit) throw new Error(`BENCH_BASELINE: '${ref}' is not a commit`);
  const subject = git(['log', '-1', '--format=%s', commit]);
  const parent = mkdtempSync(join(os.tmpdir(), 'rosetta-bench-baseline-'));
  const dir = join(parent, 'rosetta');
  const baseline = { ref, commit, short: commit.slice(0, 7), subject, dir, parent, buildSeconds: null };
  if (onStart) onStart(baseline);
  git(['worktree', 'add', '--detach', dir, commit]);
  const started = Date.now();
  if (readFileSync(join(dir, 'package-lock.json'), 'utf8') === readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) {
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  } else {
    log(`baseline ${baseline.short} has other dependencies than this checkout: npm ci in ${dir}`);
    const install = startChild('baseline npm ci', 'npm', ['ci', '--silent', '--no-audit', '--no-fund'], { env: baseEnv(), cwd: dir, group: true });
    const installed = await install.exitPromise;
    if (installed !== 0) throw new Error(`npm ci of ${ref} failed (exit ${installed})\n${install.tail(30)}`);
  }
  log(`baseline ${baseline.short} (${subject}) checked out in ${dir}; building`);
  const build = startChild('baseline build', 'npm', ['run', '--silent', 'build'], { env: { ...baseEnv(), NODE_ENV: 'production' }, cwd: dir, group: true });
  const code = await build.exitPromise;
  if (code !== 0) throw new Error(`npm run build of ${ref} failed (exit ${code})\n${build.tail(30)}`);
  if (!existsSync(join(dir, 'dist', 'apps', 'gateway', 'src', 'main.js'))) throw new Error(`npm run build of ${ref} wrote no dist/apps/gateway/src/main.js`);
  baseline.buildSeconds = Math.round((Date.now() - started) / 100) / 10;
  return baseline;
}

/**
 * Removes the baseline's worktree (synchronous, so it also runs from an `exit` handler): the
 * node_modules symlink first (so nothing can follow it into this checkout's packages), then
 * `git worktree remove --force`, else the directory and its stale worktree entry.
 */
function removeBaseline(baseline) {
  if (!baseline || baseline.removed) return;
  baseline.removed = true;
  try {
    unlinkSync(join(baseline.dir, 'node_modules'));
  } catch {
    /* not created yet, or gone */
  }
  try {
    if (existsSync(baseline.dir)) git(['worktree', 'remove', '--force', baseline.dir]);
  } catch {
    rmSync(baseline.dir, { recursive: true, force: true });
    try {
      git(['worktree', 'prune']);
    } catch {
      /* nothing to prune */
    }
  }
  rmSync(baseline.parent, { recursive: true, force: true });
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
 * The OpenAI-protocol targets compared throughout: direct, Rosetta, (when started) Rosetta at the
 * baseline commit, Portkey, and (when started) the floor proxy.
 */
function openAiTargets({ sim, rosetta, baseline, portkey, floor }, { stream = false, prompt = PROMPT } = {}) {
  const extra = stream ? { stream: true } : {};
  const json = { 'content-type': 'application/json' };
  const rosettaTarget = (gateway) => ({
    name: gateway.name,
    url: `${gateway.url}/v1/chat/completions`,
    headers: { ...json, authorization: `Bearer ${gateway.key}` },
    body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: prompt }], ...extra }),
    pid: gateway.pid,
  });
  const upstreamBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }], ...extra });
  return [
    { name: 'direct', url: `${sim.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${SIM_KEY}` }, body: upstreamBody, pid: sim.pid },
    rosettaTarget(rosetta),
    ...(baseline ? [rosettaTarget(baseline)] : []),
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

/**
 * A request in dialect A/B/C to Rosetta (or the baseline: `rosetta.name`) for a model served over
 * `protocol`.
 */
function dialectTarget(rosetta, dialect, protocol) {
  const model = MODELS[protocol];
  const gateway = rosetta.name || 'rosetta';
  const name = `${dialect}->${protocol}${gateway === 'rosetta' ? '' : ` ${gateway}`}`;
  if (dialect === 'A') {
    return {
      name, gateway, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  if (dialect === 'B') {
    return {
      name, gateway, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/messages`,
      headers: { 'content-type': 'application/json', 'x-api-key': rosetta.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  return {
    name, gateway, dialect, protocol, pid: rosetta.pid,
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
  startOtlpSink,
  setupKey,
  describeKey,
  createKey,
  KEY_KINDS,
  KEY_LIMITS,
  KEY_BUDGET,
  prepareBaseline,
  removeBaseline,
  startPortkey,
  startFloor,
  stopChild,
  openAiTargets,
  dialectTarget,
  directProtocolTarget,
  preflight,
  MODELS,
};
