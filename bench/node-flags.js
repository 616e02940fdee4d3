#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `node bench/node-flags.js`: what a node flag costs or buys Rosetta's request path. Starts one
// simulator and one Rosetta per variant (one process each, WORKERS=1, a fresh database and Redis
// index each, a limited key), all from this checkout's dist/ with the gateway's own flags
// (scripts/gateway-node-flags.js) followed by the variant's (a later flag wins), and measures them
// interleaved, rotating the order each round: saturated throughput and CPU per request at 64
// connections, and latency at a fixed 1,000 req/s (non-streamed chat completions, dialect A →
// OpenAI). Prints one line per variant with every round's figure; writes nothing.
//
// FLAG_VARIANTS: JSON [{"name": "...", "args": ["--flag", ...]}, ...] (default: V8's 16 MB young
// generation against the gateway's 64 MB, docs/decisions/0018). FLAG_ROUNDS (3), FLAG_SECONDS (8).
const stack = require('./lib/stack');
const { stopAll, killAllSync } = require('./lib/proc');
const { runLoad, stopAllLoads } = require('./lib/load');
const { round } = require('./lib/stats');
const { log } = require('./lib/run-support');

const VARIANTS = JSON.parse(
  process.env.FLAG_VARIANTS ||
    JSON.stringify([
      { name: 'semi-16', args: ['--max-semi-space-size=16'] },
      { name: 'gateway', args: [] },
    ]),
);
const ROUNDS = Number(process.env.FLAG_ROUNDS || 3);
const SECONDS = Number(process.env.FLAG_SECONDS || 8);

async function main() {
  const started = [];
  process.on('SIGINT', () => {
    stopAllLoads();
    killAllSync();
    process.exit(130);
  });
  try {
    const sim = await stack.startSimulator({ latencyMs: 20 });
    for (const variant of VARIANTS) {
      const db = await stack.createDatabase('flags');
      const redis = await stack.claimRedisDb();
      started.push({ variant, db, redis });
      const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: db.url, redisUrl: redis.url, keyKind: 'limited', nodeArgs: variant.args, env: { WORKERS: '1' }, name: variant.name });
      started[started.length - 1].rosetta = rosetta;
    }
    const body = JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello to the benchmark.' }] });
    const target = ({ variant, rosetta }) => ({ name: variant.name, url: `${rosetta.url}/v1/chat/completions`, headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` }, body, pid: rosetta.pid });
    const figures = new Map(started.map((s) => [s.variant.name, { rps: [], cpuPer1k: [], p50: [], p99: [] }]));
    for (const s of started) await runLoad(target(s), { connections: 64, durationS: 3 });
    for (let r = 0; r < ROUNDS; r++) {
      const order = started.slice(r % started.length).concat(started.slice(0, r % started.length));
      for (const s of order) {
        const saturated = await runLoad(target(s), { connections: 64, durationS: SECONDS });
        const fixed = await runLoad(target(s), { connections: 64, durationS: SECONDS, overallRate: 1000 });
        const f = figures.get(s.variant.name);
        f.rps.push(Math.round(saturated.rps));
        f.cpuPer1k.push(round((1000 * saturated.resources.cpuCores) / saturated.rps, 3));
        f.p50.push(round(fixed.latencyMs.p50, 1));
        f.p99.push(round(fixed.latencyMs.p99, 1));
      }
      log(`round ${r + 1} of ${ROUNDS} done`);
    }
    for (const s of started) {
      const f = figures.get(s.variant.name);
      log(`${s.variant.name.padEnd(12)} [${s.variant.args.join(' ')}] req/s at 64 connections ${f.rps.join(' / ')} | CPU cores per 1,000 req/s ${f.cpuPer1k.join(' / ')} | at 1,000 req/s p50 ${f.p50.join(' / ')} ms, p99 ${f.p99.join(' / ')} ms (upstream 20 ms)`);
    }
  } finally {
    stopAllLoads();
    await stopAll(5000).catch(() => undefined);
    for (const s of started) {
      await stack.dropDatabase(s.db.name).catch(() => undefined);
      await stack.releaseRedisDb(s.redis).catch(() => undefined);
    }
  }
}

main().catch((error) => {
  log(`node-flags failed: ${error.stack || error.message}`);
  killAllSync();
  process.exit(1);
});
