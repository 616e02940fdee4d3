/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The systems under test, each in its own child process: the upstream simulator, Rosetta as it
// runs in production (built dist/, a fresh PostgreSQL database, Redis, auth and limits on), and the
// peer gateway (@portkey-ai/gateway) routed to the same simulator. The processes are started here;
// the fresh database and Redis index (stores.js), the key (keys.js), the baseline's worktree
// (worktree.js) and the targets (targets.js) have files of their own, gathered here for run.js,
// profile.js and redis-trace.js.
const { join } = require('node:path');
const { startChild, stopChild, stopAll, killAllSync, freePort, waitForHttp } = require('./proc');
const { ROOT, ADMIN_TOKEN, SIM_KEY, baseEnv } = require('./env');
const stores = require('./stores');
const keys = require('./keys');
const worktree = require('./worktree');
const targets = require('./targets');
const { GATEWAY_NODE_FLAGS } = require('../../scripts/gateway-node-flags');

/**
 * Runs `fn({ db, redis })` with the run's own PostgreSQL database and Redis index; afterwards,
 * however it ended, stops every child started and removes both stores.
 */
async function withRunStores(fn) {
  process.on('exit', () => killAllSync());
  const state = {};
  try {
    state.db = await stores.createDatabase();
    state.redis = await stores.claimRedisDb();
    return await fn(state);
  } finally {
    await stopAll(8000).catch(() => {});
    if (state.db) await stores.dropDatabase(state.db.name).catch(() => {});
    if (state.redis) await stores.releaseRedisDb(state.redis).catch(() => {});
  }
}

/** BENCH_OTEL: a stand-in OTLP collector (bench/otlp-sink.js) for Rosetta's spans. */
async function startOtlpSink() {
  const handle = startChild('otlp-sink', process.execPath, [join(__dirname, '..', 'otlp-sink.js')], { env: baseEnv(), cwd: ROOT });
  const line = await handle.waitForLine(/otlp sink listening/, 15_000);
  const { url } = JSON.parse(line);
  return { handle, url, pid: handle.pid };
}

/** The upstream simulator with a fixed latency and request recording off (bench/sim.js). */
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
 * also its working directory. `keyKind` chooses the key (see `setupKey` in keys.js); `keyFields` adds fields
 * to it (e.g. {rpm, tpm}, bench/profile.js). `env` adds variables (BENCH_OTEL's tracing). `redisEnv`
 * (a claimed cluster's `env`) replaces REDIS_URL.
 */
async function startRosetta({ simUrl, databaseUrl, redisUrl, redisEnv, nodeArgs = [], keyKind = 'enterprise', keyFields = {}, root = ROOT, name = 'rosetta', env: extraEnv = {} }) {
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
    // WORKERS passes through (unset: the gateway's default, the available parallelism); a
    // baseline from before WORKERS ignores it and runs one process. So does Node's
    // NODE_CLUSTER_SCHED_POLICY (`rr`, the default on Linux, or `none`), to compare how the
    // workers get their connections.
    ...Object.fromEntries(['WORKERS', 'NODE_CLUSTER_SCHED_POLICY'].filter((name) => process.env[name]).map((name) => [name, process.env[name]])),
    ...extraEnv,
  };
  // A Redis Cluster (BENCH_REDIS=cluster) is named by REDIS_CLUSTER_NODES instead of REDIS_URL.
  if (redisEnv) {
    delete env.REDIS_URL;
    Object.assign(env, redisEnv);
  }
  const handle = startChild(name, process.execPath, [...GATEWAY_NODE_FLAGS, ...nodeArgs, join(root, 'dist', 'apps', 'gateway', 'src', 'main.js')], { env, cwd: root });
  const url = `http://127.0.0.1:${port}`;
  const ready = await waitForHttp(`${url}/readyz`, (r) => r.status === 200, 60_000, handle);
  const keyInfo = await keys.setupKey(url, keyKind, { fields: keyFields });
  return { handle, name, root, url, port, pid: handle.pid, key: keyInfo.key, keyInfo, readiness: JSON.parse(ready.body) };
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

module.exports = {
  ROOT,
  ...stores,
  withRunStores,
  startSimulator,
  startRosetta,
  startOtlpSink,
  ...keys,
  ...worktree,
  startPortkey,
  startFloor,
  stopChild,
  ...targets,
};
