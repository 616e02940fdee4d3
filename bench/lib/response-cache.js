/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The bench stage for issue 29's bars: a response-cache hit answered at ≥ 2× the direct
// upstream's throughput (it never reaches the upstream), and a miss adding ≤ 0.1 ms p50 over the
// same request with the cache off (the lookup: a hash of the request and one store read).
// Three keys of its own on the running Rosetta, alike but for their cache: off, exact with one
// repeated request (every request after the first a hit), exact with a new request every time
// (every request a miss, stored).
const { execFile } = require('node:child_process');
const { join } = require('node:path');
const { runLoad, mergeLoadPoints } = require('./load');
const { httpRequest, sleep } = require('./proc');
const { ADMIN_TOKEN, SIM_KEY } = require('./env');
const { diff } = require('./stats');
const { log, rotate, fmt, assertAlive } = require('./run-support');

const HIT_OVER_DIRECT = 2;
const MISS_CEILING_MS = 0.1;
const PROMPT = 'Say hello to the benchmark in one short sentence.';

async function cacheKey(url, name, cache) {
  const response = await httpRequest(`${url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, plan: 'enterprise', ...(cache ? { cache } : {}) }),
  });
  if (response.status !== 201) throw new Error(`POST /admin/keys (${name}): HTTP ${response.status} ${response.body.slice(0, 300)}`);
  return JSON.parse(response.body).key;
}

function targets({ sim, rosetta }, keys) {
  const json = { 'content-type': 'application/json' };
  const body = (content) => JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content }] });
  const via = (name, key, extra = {}) => ({ name, url: `${rosetta.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${key}` }, body: body(PROMPT), pid: rosetta.pid, ...extra });
  let n = 0;
  return {
    direct: { name: 'direct', url: `${sim.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${SIM_KEY}` }, body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] }), pid: sim.pid },
    off: via('cache off', keys.off),
    hit: via('cache hit', keys.hit),
    // The counter makes every request new; its few extra bytes are in the cache-off body too.
    miss: via('cache miss', keys.miss, { nextBody: () => body(`${PROMPT} #${n++}`) }),
    offVaried: via('cache off', keys.off, { nextBody: () => body(`${PROMPT} #${n++}`) }),
  };
}

/**
 * What a miss adds, apart from the machine's noise (bench/response-cache-probe.js, the built
 * code): the ticket's CPU per request, and the lookup's Redis round trip on an idle connection.
 */
function probe(root) {
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(__dirname, '..', 'response-cache-probe.js'), root, redisUrl], { timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`response-cache probe failed: ${stderr || error.message}`));
      resolve(JSON.parse(stdout.trim().split('\n').pop()));
    });
  });
}

async function responseCache({ results, plan: PLAN, systems }) {
  const { rosetta } = systems;
  const keys = {
    off: await cacheKey(rosetta.url, 'bench-cache-off', null),
    hit: await cacheKey(rosetta.url, 'bench-cache-hit', { mode: 'exact', ttl_s: 86_400 }),
    miss: await cacheKey(rosetta.url, 'bench-cache-miss', { mode: 'exact', ttl_s: 60 }),
  };
  const t = targets(systems, keys);
  // The hit key's one request, stored before the load.
  await runLoad(t.hit, { connections: 1, durationS: 1 });
  const cache = PLAN.cache;
  const throughputParts = { direct: [], off: [], hit: [] };
  let turn = 0;
  for (let round = 0; round < cache.rounds; round++) {
    for (const name of rotate(['direct', 'off', 'hit'], turn++)) {
      assertAlive(systems);
      const part = await runLoad(t[name], { connections: cache.connections, durationS: cache.seconds });
      throughputParts[name].push(part);
      log(`  c=${cache.connections} ${t[name].name.padEnd(12)} ${fmt(part.rps)} req/s  p50 ${fmt(part.latencyMs.p50, 2)} ms  errors ${part.errors}`);
      await sleep(PLAN.pauseMs);
    }
  }
  const latencyParts = { off: [], miss: [] };
  const connections = Math.max(1, Math.round(cache.rate / PLAN.perConnectionRate));
  for (let round = 0; round < cache.rounds; round++) {
    for (const name of rotate(['off', 'miss'], turn++)) {
      assertAlive(systems);
      const part = await runLoad(name === 'off' ? t.offVaried : t.miss, { connections, durationS: cache.seconds, overallRate: cache.rate });
      latencyParts[name].push(part);
      log(`  ${cache.rate} req/s ${t[name].name.padEnd(12)} p50 ${fmt(part.latencyMs.p50, 3)}  p99 ${fmt(part.latencyMs.p99, 3)} ms  errors ${part.errors}`);
      await sleep(PLAN.pauseMs);
    }
  }
  const throughput = Object.fromEntries(Object.entries(throughputParts).map(([name, parts]) => [name, mergeLoadPoints(parts)]));
  const latency = Object.fromEntries(Object.entries(latencyParts).map(([name, parts]) => [name, mergeLoadPoints(parts)]));
  const hitOverDirect = throughput.direct.rps ? throughput.hit.rps / throughput.direct.rps : null;
  const missAddedP50Ms = diff(latency.miss.latencyMs.p50, latency.off.latencyMs.p50);
  const missCost = await probe(rosetta.root || join(__dirname, '..', '..'));
  const missAddedMs = (missCost.addedCpuMicros + (missCost.redisGetMicrosP50 ?? 0)) / 1000;
  results.responseCache = {
    settings: { ...cache, connectionsAtRate: connections },
    missCost,
    missAddedMs,
    throughput,
    latency,
    hitOverDirect,
    missAddedP50Ms,
    bars: { hitOverDirect: HIT_OVER_DIRECT, missCeilingMs: MISS_CEILING_MS },
    withinBars: hitOverDirect !== null && hitOverDirect >= HIT_OVER_DIRECT && missAddedMs <= MISS_CEILING_MS,
  };
  log(`  hit ${fmt(hitOverDirect, 2)}× direct; a miss adds ${fmt(missAddedMs, 3)} ms (${fmt(missCost.addedCpuMicros, 1)} µs CPU + a ${fmt(missCost.redisGetMicrosP50, 1)} µs GET); end to end ${fmt(missAddedP50Ms, 3)} ms p50 over the cache off`);
}

module.exports = { responseCache, HIT_OVER_DIRECT, MISS_CEILING_MS };
