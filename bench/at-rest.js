#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// What each target costs a request when nothing else is going on: one connection, requests back to
// back, an upstream that answers at once (SIM_LATENCY_MS=0), so the latency is the target's own
// work and waits. Rosetta (one process) runs twice: with the budget key (admission and settlement
// in Redis) and with an enterprise key (no limits: no Redis on the request). Compare the CPU per
// request here with the bench's 1-connection point (a 20 ms upstream, so each step runs after an
// idle wait) and its 64-connection point (the code hot).
//
// Options (env): AT_REST_SECONDS (5), AT_REST_ROUNDS (2).
const stack = require('./lib/stack');
const { openAiTargets, preflight } = require('./lib/targets');
const { runLoad } = require('./lib/load');
const { log } = require('./lib/run-support');

const SECONDS = Number(process.env.AT_REST_SECONDS || 5);
const ROUNDS = Number(process.env.AT_REST_ROUNDS || 2);

function main() {
  return stack.withRunStores(async ({ db, redis }) => {
    const sim = await stack.startSimulator({ latencyMs: 0 });
    const floor = await stack.startFloor({ simUrl: sim.url });
    const common = { simUrl: sim.url, databaseUrl: db.url, redisUrl: redis.url, env: { WORKERS: '1' } };
    const budget = await stack.startRosetta({ ...common, keyKind: 'budget' });
    const unlimited = await stack.startRosetta({ ...common, keyKind: 'enterprise', name: 'rosetta-unlimited' });
    const targets = openAiTargets({ sim, rosetta: budget, baseline: unlimited, floor, portkey: { url: 'http://127.0.0.1:9', pid: 0 } }).filter((t) => t.name !== 'portkey');
    for (const target of targets) await preflight(target);
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const target of targets) {
        const point = await runLoad(target, { connections: 1, durationS: SECONDS });
        const cpu = point.resources ? ((point.resources.cpuSeconds * 1000) / point.ok).toFixed(3) : 'n/a';
        process.stdout.write(`round ${round} ${target.name.padEnd(18)} ${String(point.rps).padStart(7)} req/s  p50 ${point.latencyMs.p50} ms  p90 ${point.latencyMs.p90} ms  CPU ${cpu} ms per request\n`);
      }
    }
  });
}

main().catch((error) => {
  log(`at-rest failed: ${error.stack || error.message}`);
  process.exitCode = 1;
});
