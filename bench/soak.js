#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `npm run bench:soak`: does Rosetta leak, or fail, over a long steady run, and how much memory do
// many open streams take?
//
// Starts the simulator, Rosetta as in production (built, fresh PostgreSQL database, Redis, a key
// with finite RPM/TPM so the limiter runs) and then:
// 1. a steady open-loop rate (SOAK_RATE req/s, default 60) for SOAK_MINUTES (default 30), rotating
//    over the four dialects, streamed and not, to all three upstream protocols; every answer is read
//    to its end and must finish cleanly; the replica's resident memory (primary and workers) is
//    sampled every 10 s, and its floors compared after SOAK_WARMUP_MINUTES (default 10), the time each
//    worker's young generation grows to its size; at the end every request must have exactly one ledger row;
// 2. SOAK_STREAMS (default 10,000) slow streams held open at once, with the peak memory: each lasts
//    SOAK_HOLD_SECONDS (default 60, a token a second), opened over SOAK_RAMP_SECONDS (default 30).
// Writes docs/benchmarks/soak.{md,json} (SOAK_OUT_DIR to change). Not a test: nothing asserts a
// timing; the verdicts are printed and recorded.
const { execFileSync } = require('node:child_process');
const { readFileSync, writeFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const { Client } = require('pg');
const stack = require('./lib/stack');
const { ADMIN_TOKEN } = require('./lib/env');
const { stopAll, killAllSync, sleep } = require('./lib/proc');
const { holdStreams, abortAllStreams } = require('./lib/streams');
const { mb } = require('./lib/load');
const { round } = require('./lib/stats');
const { log, streamingPrompt } = require('./lib/run-support');
const os = require('node:os');
const { treeRss, treeMemory, soakRequests, steadyLoad, slope } = require('./lib/soak-load');

const MINUTES = Number(process.env.SOAK_MINUTES || 30);
const RATE = Number(process.env.SOAK_RATE || 60);
const STREAMS = Number(process.env.SOAK_STREAMS || 10_000);
const HOLD_SECONDS = Number(process.env.SOAK_HOLD_SECONDS || 60);
const RAMP_SECONDS = Number(process.env.SOAK_RAMP_SECONDS || 30);
const WARMUP_MINUTES = Number(process.env.SOAK_WARMUP_MINUTES || 10);
const OUT_DIR = process.env.SOAK_OUT_DIR || join(stack.ROOT, 'docs', 'benchmarks');
const SAMPLE_MS = 10_000;
const NOFILE = 65_536;

/**
 * Many open sockets need more descriptors than a usual soft limit: run again under prlimit with the
 * soft limit raised to the hard one (which needs no privilege). A replica serving N streams holds
 * 2N sockets (client and upstream) in one process unless WORKERS spreads them.
 */
function ensureDescriptors() {
  const match = /Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/.exec(readFileSync('/proc/self/limits', 'utf8'));
  if (!match || process.env.SOAK_REEXEC === '1') return;
  const [soft, hard] = [match[1], match[2]].map((v) => (v === 'unlimited' ? Infinity : Number(v)));
  const want = Math.min(hard, NOFILE);
  if (soft >= want) {
    if (2 * STREAMS + 1000 > soft) log(`${soft} open files per process (hard limit ${hard}): one process cannot hold ${STREAMS} streams and their upstream sockets`);
    return;
  }
  try {
    execFileSync('prlimit', [`--nofile=${want}:${hard === Infinity ? 'unlimited' : hard}`, process.execPath, __filename], { stdio: 'inherit', env: { ...process.env, SOAK_REEXEC: '1' } });
    process.exit(0);
  } catch (error) {
    if (typeof error.status === 'number') process.exit(error.status);
    log(`could not raise the open-file limit (${error.message})`);
  }
}

async function ledgerRows(databaseUrl) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT count(*)::int AS n, count(DISTINCT request_id)::int AS distinct_ids FROM request_log');
    return rows[0];
  } finally {
    await client.end();
  }
}

/** V8's new space, all workers together, from the replica's /metrics (null when it cannot be read). */
async function newSpaceBytes(url) {
  try {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const match = /^nodejs_heap_space_size_total_bytes\{[^}]*space="new"[^}]*\} (\S+)/m.exec(await response.text());
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

async function steadyPhase(rosetta, databaseUrl) {
  const requests = soakRequests(rosetta.url, rosetta.key);
  const samples = [];
  log(`steady: ${RATE} req/s for ${MINUTES} min over ${requests.length} request kinds`);
  const counts = await steadyLoad(requests, {
    rate: RATE,
    durationMs: MINUTES * 60_000,
    sampleMs: SAMPLE_MS,
    onSample: (c, elapsedMs) => {
      const rss = treeRss(rosetta.pid);
      const sample = { minute: round(elapsedMs / 60_000, 2), rssMB: rss === null ? null : mb(rss), newSpaceMB: null, sent: c.sent, failed: c.failed, inFlight: c.inFlight };
      samples.push(sample);
      // The workers' young generations (summed by the replica's /metrics): what the warm-up waits for.
      void newSpaceBytes(rosetta.url).then((bytes) => (sample.newSpaceMB = bytes === null ? null : mb(bytes)));
      if (samples.length % 6 === 0) log(`  ${round(elapsedMs / 60_000, 1)} min: RSS ${mb(rss)} MB, ${c.sent} sent, ${c.failed} failed, ${c.inFlight} in flight`);
    },
  });
  // Ledger rows are written in batches; the last batch lands within a flush interval.
  let ledger = await ledgerRows(databaseUrl);
  for (let i = 0; i < 20 && ledger.n < counts.sent; i += 1) {
    await sleep(500);
    ledger = await ledgerRows(databaseUrl);
  }
  return { rate: RATE, minutes: MINUTES, warmup: WARMUP_MINUTES, sent: counts.sent, ok: counts.ok, failed: counts.failed, failures: Object.fromEntries(counts.failures), ledger, samples };
}

/**
 * The steady phase's verdict from its samples. The resident set saws up and down with garbage
 * collection; its floor (the lowest sample of each 5-minute window) is what a leak raises. The
 * windows start after `warmup` minutes: under load each worker's young generation grows to its
 * size (up to 128 MB, docs/decisions/0018) over the first minutes, a one-time rise, not a leak.
 */
function judgeSteady({ rate, minutes, warmup, sent, ok, failed, failures, ledger, samples }) {
  const points = samples.filter((s) => s.rssMB !== null).map((s) => [s.minute, s.rssMB]);
  const floors = [];
  for (let from = warmup; from + 5 <= minutes + 0.01; from += 5) {
    const window = points.filter(([minute]) => minute >= from && minute < from + 5);
    if (window.length) floors.push([from + 5, Math.min(...window.map(([, y]) => y))]);
  }
  const early = floors.length ? floors[0][1] : null;
  const late = floors.length ? floors[floors.length - 1][1] : null;
  return {
    rate,
    minutes,
    warmupMinutes: warmup,
    sent,
    ok,
    failed,
    failures,
    ledgerRows: ledger.n,
    ledgerDistinctIds: ledger.distinct_ids,
    rssFloorsMB: floors,
    rssFirstFloorMB: early,
    rssLastFloorMB: late,
    rssFloorSlopeMBPerHour: round(slope(floors) * 60, 1),
    rssPeakMB: points.length ? Math.max(...points.map(([, y]) => y)) : null,
    flat: early !== null && late !== null && late - early < 15,
    samples,
  };
}

async function holdPhase(rosetta) {
  // Each stream lasts HOLD_SECONDS at one token a second; they open over RAMP_SECONDS, so all are
  // open at once from the end of the ramp. The opening rate (10,000 over 30 s) is what the one
  // simulator process can accept on a shared 2-core machine: at 15 s it refused connections
  // (docs/benchmarks/2026-11-27-stream-memory.md).
  const words = HOLD_SECONDS;
  const tokensPerSecond = 1;
  const prompt = streamingPrompt({ words, tokensPerSecond });
  const target = {
    name: 'rosetta',
    url: `${rosetta.url}/v1/chat/completions`,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` },
    body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: prompt }] }),
    pid: rosetta.pid,
  };
  const before = treeMemory(rosetta.pid) ?? { rss: 0, charged: 0 };
  const peak = { ...before };
  const watch = setInterval(() => {
    const now = treeMemory(rosetta.pid);
    if (now === null) return;
    peak.rss = Math.max(peak.rss, now.rss);
    peak.charged = Math.max(peak.charged, now.charged);
  }, 500);
  log(`hold: ${STREAMS} streams of ${words / tokensPerSecond} s, opened over ${RAMP_SECONDS} s`);
  try {
    const point = await holdStreams(target, { count: STREAMS, rampMs: RAMP_SECONDS * 1000, timeoutMs: (words / tokensPerSecond + 90) * 1000 });
    const { ttftMs, ...rest } = point;
    return {
      ...rest,
      holdSeconds: HOLD_SECONDS,
      rampSeconds: RAMP_SECONDS,
      ttftP50Ms: ttftMs ? ttftMs.p50 : null,
      rssBeforeMB: mb(before.rss),
      rssTreePeakMB: mb(peak.rss),
      chargedBeforeMB: mb(before.charged),
      chargedPeakMB: mb(peak.charged),
      under1GB: peak.charged < 1024 * 1024 * 1024 && point.errors === 0,
    };
  } finally {
    clearInterval(watch);
  }
}

function markdown(result) {
  const s = result.steady;
  const h = result.hold;
  const lines = [
    '# Soak',
    '',
    `Recorded by \`npm run bench:soak\` on ${result.generatedAt} (commit ${result.commit}). Machine: ${result.machine}; load generator, simulator, PostgreSQL, Redis and Rosetta share it.`,
    `Rosetta: built \`dist/\`, PostgreSQL, Redis, a key with finite RPM/TPM, \`LOG_LEVEL=warn\`${result.workers ? `, \`WORKERS=${result.workers}\`` : ''}; the steady phase's memory is the resident sets of the replica's processes (primary and workers) added up.`,
    '',
    `## Steady: ${s.rate} req/s for ${s.minutes} min, four dialects × three upstream protocols, half streamed`,
    '',
    `| sent | finished cleanly | failed | ledger rows | distinct ledger ids | RSS floor, min ${s.warmupMinutes}–${s.warmupMinutes + 5} MB | RSS floor, last 5 min MB | slope of the floors MB/h | peak RSS MB | verdict |`,
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    `| ${s.sent} | ${s.ok} | ${s.failed} | ${s.ledgerRows} | ${s.ledgerDistinctIds} | ${s.rssFirstFloorMB} | ${s.rssLastFloorMB} | ${s.rssFloorSlopeMBPerHour} | ${s.rssPeakMB} | ${s.flat && s.failed === 0 && s.ledgerRows === s.sent ? '**flat, no error, one row each**' : '**not met**'} |`,
    '',
    `The floor is the lowest resident set sampled in a 5-minute window (memory saws up and down with garbage collection; a leak raises the floor). Flat: the last floor within 15 MB of the first. The windows start after ${s.warmupMinutes} minutes of warm-up: under load each worker's young generation grows to its size (up to 128 MB, docs/decisions/0018), once.`,
    '',
    Object.keys(s.failures).length ? `Failures: ${Object.entries(s.failures).map(([k, n]) => `${n} × ${k}`).join('; ')}` : 'No failure.',
    '',
    `RSS by minute: ${s.samples.filter((_, i) => i % 6 === 5).map((x) => `${round(x.minute, 0)}′ ${x.rssMB}`).join(', ')} (MB).`,
    ...(s.samples.some((x) => x.newSpaceMB != null) ? ['', `Young generation (V8's new space, the workers together) by minute: ${s.samples.filter((_, i) => i % 6 === 5).map((x) => `${round(x.minute, 0)}′ ${x.newSpaceMB ?? '–'}`).join(', ')} (MB).`] : []),
    '',
    `## ${h.streams} streams open at once`,
    '',
    `Each stream lasts ${h.holdSeconds} s at a token a second; they open over ${h.rampSeconds} s.`,
    '',
    '| streams | max open at once | completed | errors | memory before MB | peak memory MB | peak RSS added up MB | verdict |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    `| ${h.streams} | ${h.maxOpen} | ${h.completed} | ${h.errors} | ${h.chargedBeforeMB} | ${h.chargedPeakMB} | ${h.rssTreePeakMB} | ${h.under1GB ? '**under 1 GiB, no error**' : '**not met**'} |`,
    '',
    "Memory is the replica's processes' own (anonymous) memory added up, plus the largest file-backed resident set once: what a container's limit is charged for them. The resident sets added up count the pages the processes share (the node binary, ~50 MB) once per process.",
    '',
    h.errorSamples && h.errorSamples.length ? `Errors: ${h.errorSamples.join('; ')}` : '',
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `node bench/soak.js --render [dir]`: judges and renders soak.md again from the soak.json in `dir`
 * (default SOAK_OUT_DIR), with this script's rules (SOAK_WARMUP_MINUTES) — no run.
 */
function render(dir) {
  const result = JSON.parse(readFileSync(join(dir, 'soak.json'), 'utf8'));
  const s = result.steady;
  const ledger = { n: s.ledgerRows, distinct_ids: s.ledgerDistinctIds };
  result.steady = judgeSteady({ rate: s.rate, minutes: s.minutes, warmup: WARMUP_MINUTES, sent: s.sent, ok: s.ok, failed: s.failed, failures: s.failures, ledger, samples: s.samples });
  writeFileSync(join(dir, 'soak.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(dir, 'soak.md'), markdown(result));
  log(`rendered ${join(dir, 'soak.md')}`);
}

async function main() {
  if (process.argv[2] === '--render') return render(process.argv[3] || OUT_DIR);
  ensureDescriptors();
  const state = { db: null, redis: null };
  const cleanup = async () => {
    abortAllStreams();
    await stopAll(8000).catch(() => undefined);
    if (state.db) await stack.dropDatabase(state.db.name).catch(() => undefined);
    if (state.redis) await stack.releaseRedisDb(state.redis).catch(() => undefined);
  };
  process.on('SIGINT', () => {
    killAllSync();
    process.exit(130);
  });
  try {
    state.db = await stack.createDatabase('soak');
    state.redis = await stack.claimRedisDb();
    const sim = await stack.startSimulator({ latencyMs: 20 });
    const workers = process.env.WORKERS;
    const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: state.db.url, redisUrl: state.redis.url, keyKind: 'limited', env: workers ? { WORKERS: workers } : {} });
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: stack.ROOT, encoding: 'utf8' }).trim();
    const steady = judgeSteady(await steadyPhase(rosetta, state.db.url));
    log(`steady: ${steady.sent} sent, ${steady.failed} failed, ${steady.ledgerRows} ledger rows; RSS floor ${steady.rssFirstFloorMB} → ${steady.rssLastFloorMB} MB`);
    const hold = await holdPhase(rosetta);
    log(`hold: ${hold.maxOpen}/${hold.streams} open at once, ${hold.errors} errors, peak RSS ${hold.rssTreePeakMB} MB`);
    const result = { generatedAt: new Date().toISOString(), commit, machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${round(os.totalmem() / 1024 ** 3, 1)} GiB, Node ${process.version}`, workers: workers || null, steady, hold };
    mkdirSync(OUT_DIR, { recursive: true });
    writeFileSync(join(OUT_DIR, 'soak.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(OUT_DIR, 'soak.md'), markdown(result));
    log(`wrote ${join(OUT_DIR, 'soak.md')}`);
  } finally {
    await cleanup();
  }
}

main().catch((error) => {
  log(`soak failed: ${error.stack || error.message}`);
  killAllSync();
  process.exit(1);
});
