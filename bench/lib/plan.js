/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// What `npm run bench` is asked to do (the BENCH_* variables, see run.js) and the plan of the run:
// the load points of the full run and of BENCH_QUICK=1.
const { join } = require('node:path');
const stack = require('./stack');

const QUICK = process.env.BENCH_QUICK === '1';
const OUT_DIR = process.env.BENCH_OUT_DIR || join(stack.ROOT, 'docs', 'benchmarks');
const BASELINE_REF = (process.env.BENCH_BASELINE || '').trim() || null;
const CURRENT_REF = (process.env.BENCH_REF || '').trim() || null;
const KEY_KIND = (process.env.BENCH_KEY || '').trim() || 'enterprise';
const BASELINE_KEY_KIND = (process.env.BENCH_BASELINE_KEY || '').trim() || KEY_KIND;
for (const [name, kind] of [['BENCH_KEY', KEY_KIND], ['BENCH_BASELINE_KEY', BASELINE_KEY_KIND]]) {
  if (!stack.KEY_KINDS.includes(kind)) {
    process.stderr.write(`${name} must be one of ${stack.KEY_KINDS.join(', ')}, got '${kind}'\n`);
    process.exit(2);
  }
}
const OTEL = process.env.BENCH_OTEL === '1';

const PLAN = QUICK
  ? {
      mode: 'quick',
      simLatencyMs: 20,
      warmupS: 2,
      connections: [1, 16, 64, 256],
      throughputS: 2,
      throughputRounds: 1,
      pointWarmupS: 0.5,
      rates: [200, 1000],
      rateS: 2.5,
      rateRounds: 1,
      perConnectionRate: 25,
      stream: { count: 60, rounds: 1, concurrency: 4, words: 20, tokensPerSecond: 200 },
      dialectS: 1.5,
      dialectConnections: 64,
      hold: { count: 2000, rampMs: 3000, words: 16, tokensPerSecond: 2, targets: ['rosetta', 'rosetta-baseline'] },
      cache: { connections: 16, seconds: 2.5, rounds: 1, rate: 200 },
      pauseMs: 300,
    }
  : {
      mode: 'full',
      simLatencyMs: 20,
      warmupS: 3,
      connections: [1, 16, 64, 256],
      throughputS: 3.5,
      throughputRounds: 3,
      pointWarmupS: 1.5,
      rates: [200, 1000],
      rateS: 5,
      rateRounds: 2,
      perConnectionRate: 25,
      stream: { count: 100, rounds: 3, concurrency: 4, words: 20, tokensPerSecond: 200 },
      dialectS: 4,
      dialectConnections: 64,
      hold: { count: 2000, rampMs: 4000, words: 24, tokensPerSecond: 2, targets: ['direct', 'floor', 'rosetta', 'rosetta-baseline', 'portkey'] },
      // The response cache's stage (lib/response-cache.js): 16 connections keep the direct
      // upstream latency-bound (20 ms a call), as a real model is.
      cache: { connections: 16, seconds: 4, rounds: 3, rate: 200 },
      pauseMs: 500,
    };

module.exports = { QUICK, OUT_DIR, BASELINE_REF, CURRENT_REF, KEY_KIND, BASELINE_KEY_KIND, OTEL, PLAN };
