#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The upstream simulator for benchmarks: the built simulator (dist/) started with a fixed latency
// and request recording off (maxRecordedRequests: 0), so its memory stays flat under load.
// Environment: SIM_PORT (0 = free port), SIM_HOST, SIM_LATENCY_MS, SIM_TOKENS_PER_SECOND.
// Prints one JSON line {"msg":"simulator listening","url":...,"port":...} when ready.
const { join } = require('node:path');

const { startSimulator } = require(join(__dirname, '..', 'dist', 'apps', 'simulator', 'src', 'simulator.js'));

function num(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    process.stderr.write(`bench/sim: ${name} must be a non-negative number, got '${raw}'\n`);
    process.exit(1);
  }
  return value;
}

async function main() {
  const sim = await startSimulator({
    port: num('SIM_PORT', 0),
    host: process.env.SIM_HOST || '127.0.0.1',
    latencyMs: num('SIM_LATENCY_MS', 20),
    tokensPerSecond: num('SIM_TOKENS_PER_SECOND', 0),
    maxRecordedRequests: 0,
  });
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'simulator listening', url: sim.url, port: sim.port })}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    sim.close().then(() => process.exit(0), () => process.exit(1));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`bench/sim: failed to start: ${error && error.message ? error.message : String(error)}\n`);
  process.exit(1);
});
