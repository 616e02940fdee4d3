#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Where the fixed-rate tail comes from. The floor proxy and Rosetta (one process, `--trace-gc`)
// take the same open-loop load in turn, as the bench's added-latency points send it; every
// response's end time and latency is kept, with the gateway's garbage-collection pauses (from
// --trace-gc, put on this process's clock) and how busy the whole machine was (from /proc/stat,
// every 50 ms). It reports the tail of each, and for Rosetta's slow responses (slower than the
// floor's p99 by TAIL_SLOW_MS) how many overlapped a pause, or fell in a 50 ms slice when the
// machine was saturated.
//
// Options (env): TAIL_RATE (1000 req/s), TAIL_SECONDS (10), TAIL_ROUNDS (2), TAIL_KEY (budget),
// TAIL_SLOW_MS (5), TAIL_CONNECTIONS (one per 20 req/s), TAIL_NODE_ARGS (after the gateway's flags,
// e.g. --max-semi-space-size=16 for V8's default young generation), TAIL_OUT (the raw result, JSON).
const { readFileSync, writeFileSync } = require('node:fs');
const autocannon = require('autocannon');
const stack = require('./lib/stack');
const { openAiTargets, preflight } = require('./lib/targets');
const { sleep } = require('./lib/proc');
const { round } = require('./lib/stats');
const { ADMIN_TOKEN } = require('./lib/env');

const RATE = Number(process.env.TAIL_RATE || 1000);
const SECONDS = Number(process.env.TAIL_SECONDS || 10);
const ROUNDS = Number(process.env.TAIL_ROUNDS || 2);
const KEY = process.env.TAIL_KEY || 'budget';
const SLOW_MS = Number(process.env.TAIL_SLOW_MS || 5);
// Enough connections that the rate, not the latency, sets the pace (with one per 50 req/s and a
// 20 ms upstream, the achieved rate falls with the target's latency).
const CONNECTIONS = Number(process.env.TAIL_CONNECTIONS || Math.ceil(RATE / 20));
const SLICE_MS = 50;
const NODE_ARGS = (process.env.TAIL_NODE_ARGS || '').split(/\s+/).filter(Boolean);

const { log } = require('./lib/run-support');
const out = (line) => process.stdout.write(`${line}\n`);

/** Busy and total jiffies of the whole machine. */
function machineTicks() {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = fields[3] + fields[4];
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: total - idle, total };
}

/** Samples the machine's busy fraction every SLICE_MS: [{at, busy}] on performance.now()'s clock. */
function sampleMachine() {
  const samples = [];
  let last = machineTicks();
  const timer = setInterval(() => {
    const now = machineTicks();
    const total = now.total - last.total;
    samples.push({ at: performance.now(), busy: total > 0 ? (now.busy - last.busy) / total : 0 });
    last = now;
  }, SLICE_MS);
  return { samples, stop: () => clearInterval(timer) };
}

/** One open-loop point: every 2xx response's end time and latency. */
function point(target) {
  return new Promise((resolve, reject) => {
    const responses = [];
    let errors = 0;
    const instance = autocannon({
      url: target.url,
      method: 'POST',
      headers: target.headers,
      body: target.body,
      connections: CONNECTIONS,
      duration: SECONDS,
      overallRate: RATE,
      timeout: 10,
    });
    instance.on('response', (_client, status, _bytes, latency) => {
      if (status >= 200 && status < 300) responses.push({ end: performance.now(), latency });
      else errors += 1;
    });
    instance.on('done', () => resolve({ responses, errors }));
    instance.on('error', reject);
  });
}

function percentile(sorted, p) {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function tail(responses) {
  const sorted = responses.map((r) => r.latency).sort((a, b) => a - b);
  return { n: sorted.length, p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2), p999: round(percentile(sorted, 99.9), 2), max: round(sorted.at(-1), 2) };
}

/** prom-client's event-loop lag gauges (ms), which cover the time since the previous scrape. */
async function loopLag(url) {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).text();
  const read = (name) => round(Number(new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)`, 'm').exec(text)?.[1]) * 1000, 2);
  return { p50: read('p50'), p99: read('p99'), max: read('max') };
}

/** `--trace-gc` lines: `[pid:0x…]   1234 ms: Scavenge 50.1 (60.2) -> 45.3 (61.2) MB, 3.45 / 0.00 ms …`. */
const GC_LINE = /\]\s+(\d+)\s+ms:\s+([A-Za-z-]+(?: \(reduce\))?)\b.*?MB, ([\d.]+) \/ ([\d.]+) ms/;

function main() {
  return stack.withRunStores(async ({ db, redis }) => {
    const sim = await stack.startSimulator({ latencyMs: 20 });
    const floor = await stack.startFloor({ simUrl: sim.url });
    const gcs = [];
    let offset = Infinity;
    const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: db.url, redisUrl: redis.url, nodeArgs: ['--trace-gc', ...NODE_ARGS], keyKind: KEY, env: { WORKERS: '1' } });
    rosetta.handle.onLine((line) => {
      const match = GC_LINE.exec(line);
      if (!match) return;
      const reported = Number(match[1]);
      // The line arrives after the pause ends: the smallest gap is the clocks' offset, near enough.
      const arrived = performance.now();
      offset = Math.min(offset, arrived - reported - Number(match[3]));
      gcs.push({ reported, kind: match[2], pauseMs: Number(match[3]) });
    });
    const all = openAiTargets({ sim, rosetta, floor, portkey: { url: 'http://127.0.0.1:9', pid: 0 } });
    const targets = { floor: all.find((t) => t.name === 'floor'), rosetta: all.find((t) => t.name === 'rosetta') };
    for (const target of Object.values(targets)) await preflight(target);
    log(`warm-up, then ${ROUNDS} rounds of ${SECONDS} s at ${RATE} req/s over ${CONNECTIONS} connections each, floor and Rosetta in turn`);
    await point(targets.rosetta);
    const result = { rate: RATE, seconds: SECONDS, rounds: ROUNDS, key: KEY, floor: [], rosetta: [], gcs: [], machine: [] };
    for (let r = 0; r < ROUNDS; r += 1) {
      for (const name of ['floor', 'rosetta']) {
        await sleep(1000);
        if (name === 'rosetta') await loopLag(rosetta.url);
        const machine = sampleMachine();
        const from = performance.now();
        const { responses, errors } = await point(targets[name]);
        machine.stop();
        const lag = name === 'rosetta' ? await loopLag(rosetta.url) : undefined;
        result[name].push({ from, to: performance.now(), errors, responses, lag });
        if (name === 'rosetta') result.machine.push(...machine.samples);
        log(`${name} round ${r + 1}: ${JSON.stringify(tail(responses))} errors ${errors}${lag ? `; event-loop lag (ms) ${JSON.stringify(lag)}` : ''}`);
      }
    }
    result.gcs = gcs.map((gc) => ({ ...gc, start: gc.reported + offset }));
    report(result);
    if (process.env.TAIL_OUT) writeFileSync(process.env.TAIL_OUT, JSON.stringify(result));
  });
}

function report(result) {
  const floor = result.floor.flatMap((p) => p.responses);
  const rosetta = result.rosetta.flatMap((p) => p.responses);
  const floorTail = tail(floor);
  const rosettaTail = tail(rosetta);
  out(`floor   ${JSON.stringify(floorTail)}`);
  out(`rosetta ${JSON.stringify(rosettaTail)}`);
  const windows = result.rosetta.map((p) => [p.from, p.to]);
  const inPoints = (at) => windows.some(([from, to]) => at >= from && at <= to);
  const gcs = result.gcs.filter((gc) => inPoints(gc.start));
  const byKind = {};
  for (const gc of gcs) {
    const entry = (byKind[gc.kind] ||= { count: 0, totalMs: 0, maxMs: 0 });
    entry.count += 1;
    entry.totalMs = round(entry.totalMs + gc.pauseMs, 2);
    entry.maxMs = Math.max(entry.maxMs, gc.pauseMs);
  }
  out(`gateway GC pauses during the points: ${JSON.stringify(byKind)}`);
  const threshold = floorTail.p99 + SLOW_MS;
  const slow = rosetta.filter((r) => r.latency > threshold);
  const overlapsGc = (r) => gcs.some((gc) => gc.start < r.end && gc.start + gc.pauseMs > r.end - r.latency);
  const busyAt = (at) => {
    const sample = result.machine.find((s) => s.at >= at);
    return sample ? sample.busy : NaN;
  };
  const saturated = (r) => busyAt(r.end) >= 0.95;
  const share = (list, test) => (list.length === 0 ? 0 : round(list.filter(test).length / list.length, 3));
  out(`slow (> floor p99 + ${SLOW_MS} = ${round(threshold, 2)} ms): ${slow.length} of ${rosetta.length}`);
  out(`  overlapping a GC pause: ${share(slow, overlapsGc)} (all responses: ${share(rosetta, overlapsGc)})`);
  out(`  ending in a ${SLICE_MS} ms slice with the machine ≥ 95% busy: ${share(slow, saturated)} (all responses: ${share(rosetta, saturated)})`);
  const busy = result.machine.map((s) => s.busy).sort((a, b) => a - b);
  out(`machine busy during Rosetta's points: p50 ${round(percentile(busy, 50), 3)}, p90 ${round(percentile(busy, 90), 3)}, share of slices ≥ 95%: ${share(result.machine, (s) => s.busy >= 0.95)}`);
}

main().catch((error) => {
  log(`tail failed: ${error.stack || error.message}`);
  process.exitCode = 1;
});
