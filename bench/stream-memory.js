#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `node bench/stream-memory.js`: what many open streams cost Rosetta in memory, and why.
//
// The same stack as `npm run bench` (simulator, Rosetta from dist/ with the gateway's node flags,
// a fresh database, Redis, a limited key), one process (WORKERS=1) unless WORKERS is set. Opens
// MEMORY_STREAMS (4,000) slow streams (dialect A → OpenAI, MEMORY_TOKENS_PER_SECOND 2 for 30 s)
// over 15 s and reports:
// - the peak memory of the process tree (as a container is charged: bench/lib/soak-load.js) and
//   per stream, against the memory before;
// - from V8's GC trace (--trace-gc-nvp): bytes allocated and promoted to the old generation while
//   the streams ran, the time in scavenges and the mark-compacts with the heap before and after
//   each; promoted garbage is what grew the heap (docs/decisions/0018);
// - MEMORY_SNAPSHOT=1 (one process only): heap snapshots before and with the streams open, and
//   what each stream keeps alive, by object kind (a few hundred MB of snapshot: use ~1,000 streams).
// MEMORY_NODE_ARGS adds node flags after Rosetta's own (a later flag wins: '--max-semi-space-size=16'
// is V8's default young generation again). MEMORY_REF=<git ref> measures that commit instead of this
// checkout (built in a temporary git worktree, as BENCH_BASELINE does for `npm run bench`).
// Prints a summary; writes nothing under docs/.
const { readdirSync, readFileSync, statSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const stack = require('./lib/stack');
const { stopAll, killAllSync, sleep } = require('./lib/proc');
const { holdStreams, abortAllStreams } = require('./lib/streams');
const { treeMemory } = require('./lib/soak-load');
const { streamingPrompt, log } = require('./lib/run-support');

const STREAMS = Number(process.env.MEMORY_STREAMS || 4000);
const TOKENS_PER_SECOND = Number(process.env.MEMORY_TOKENS_PER_SECOND || 2);
const SNAPSHOT = process.env.MEMORY_SNAPSHOT === '1';
const WORKERS = process.env.WORKERS || '1';
const REF = (process.env.MEMORY_REF || '').trim() || null;
const MB = 1024 * 1024;

/** The scavenges' and mark-compacts' figures from --trace-gc-nvp lines (all processes). */
function gcSummary(lines) {
  const out = { scavenges: 0, scavengeMs: 0, allocatedMB: 0, promotedMB: 0, markCompacts: [] };
  for (const line of lines) {
    const kind = / gc=(\w+)/.exec(line)?.[1];
    if (!kind) continue;
    const field = (name) => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
    if (kind === 's') {
      out.scavenges += 1;
      out.scavengeMs += field('pause');
      out.allocatedMB += field('allocated') / MB;
      out.promotedMB += field('promoted') / MB;
    } else if (kind === 'mc') {
      out.markCompacts.push(`${Math.round(field('total_size_before') / MB)} → ${Math.round(field('total_size_after') / MB)} MB (${field('pause')} ms)`);
    }
  }
  return out;
}

/** Sends SIGUSR2 (--heapsnapshot-signal) and waits for the new snapshot file to be complete. */
async function snapshot(pid, dir) {
  const before = new Set(readdirSync(dir).filter((f) => f.endsWith('.heapsnapshot')));
  process.kill(pid, 'SIGUSR2');
  for (let size = -1; ; ) {
    await sleep(1000);
    const file = readdirSync(dir).find((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (!file) continue;
    const now = statSync(join(dir, file)).size;
    if (now === size) return join(dir, file);
    size = now;
  }
}

/** Self size and count by object kind (`type:constructor`; strings and code pooled). */
function kinds(file) {
  const snap = JSON.parse(readFileSync(file, 'utf8'));
  const { node_fields: fields, node_types: [types] } = snap.snapshot.meta;
  const [type, name, size] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  const byKind = new Map();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const t = types[snap.nodes[i + type]];
    const label = /string/.test(t) ? `${t}` : t === 'code' ? 'code' : `${t}:${snap.strings[snap.nodes[i + name]].slice(0, 50)}`;
    const entry = byKind.get(label) ?? { count: 0, bytes: 0 };
    entry.count += 1;
    entry.bytes += snap.nodes[i + size];
    byKind.set(label, entry);
  }
  return byKind;
}

function perStreamKinds(beforeFile, afterFile) {
  const [before, after] = [kinds(beforeFile), kinds(afterFile)];
  const rows = [...after].map(([label, e]) => ({ label, count: (e.count - (before.get(label)?.count ?? 0)) / STREAMS, bytes: (e.bytes - (before.get(label)?.bytes ?? 0)) / STREAMS }));
  const total = rows.reduce((sum, r) => sum + r.bytes, 0);
  log(`heap kept alive per stream: ${Math.round(total)} bytes; the largest kinds (bytes, objects per stream):`);
  for (const r of rows.sort((a, b) => b.bytes - a.bytes).slice(0, 25)) log(`  ${String(Math.round(r.bytes)).padStart(6)}  ${r.count.toFixed(1).padStart(6)}  ${r.label}`);
}

async function main() {
  if (SNAPSHOT && WORKERS !== '1') throw new Error('MEMORY_SNAPSHOT needs one process (WORKERS=1)');
  if (SNAPSHOT) log('heap snapshots inflate the memory figures: read them from a run without MEMORY_SNAPSHOT');
  const state = { db: null, redis: null, snapshots: [], baseline: null };
  process.on('SIGINT', () => {
    killAllSync();
    if (state.baseline) stack.removeBaseline(state.baseline);
    process.exit(130);
  });
  try {
    if (REF) await stack.prepareBaseline(REF, { onStart: (b) => (state.baseline = b), log });
    state.db = await stack.createDatabase('memory');
    state.redis = await stack.claimRedisDb();
    const sim = await stack.startSimulator({ latencyMs: 20 });
    const nodeArgs = ['--trace-gc-nvp', ...(SNAPSHOT ? ['--heapsnapshot-signal=SIGUSR2'] : []), ...(process.env.MEMORY_NODE_ARGS || '').split(' ').filter(Boolean)];
    const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: state.db.url, redisUrl: state.redis.url, keyKind: 'limited', nodeArgs, env: { WORKERS }, ...(state.baseline ? { root: state.baseline.dir } : {}) });
    const seconds = 30;
    const target = {
      name: 'rosetta',
      url: `${rosetta.url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: streamingPrompt({ words: seconds * TOKENS_PER_SECOND, tokensPerSecond: TOKENS_PER_SECOND }) }] }),
      pid: rosetta.pid,
    };
    if (SNAPSHOT) state.snapshots.push(await snapshot(rosetta.pid, stack.ROOT));
    const before = treeMemory(rosetta.pid);
    const gcLines = [];
    const stopCollecting = rosetta.handle.onLine((line) => gcLines.push(line));
    const peak = { ...before };
    const watch = setInterval(() => {
      const now = treeMemory(rosetta.pid);
      if (now) for (const k of ['rss', 'charged']) peak[k] = Math.max(peak[k], now[k]);
    }, 250);
    log(`${REF ? `${REF} (${state.baseline.short}): ` : ''}${STREAMS} streams of ${seconds} s at ${TOKENS_PER_SECOND} tokens/s, opened over 15 s, WORKERS=${WORKERS}${nodeArgs.length > 1 ? `, node ${nodeArgs.slice(1).join(' ')}` : ''}`);
    const holding = holdStreams(target, { count: STREAMS, rampMs: 15_000, timeoutMs: (seconds + 90) * 1000 });
    if (SNAPSHOT) {
      await sleep(20_000);
      state.snapshots.push(await snapshot(rosetta.pid, stack.ROOT));
    }
    const point = await holding;
    clearInterval(watch);
    stopCollecting();
    const gc = gcSummary(gcLines);
    log(`${point.completed} completed, ${point.errors} errors${point.errorSamples.length ? ` (${point.errorSamples.join('; ')})` : ''}`);
    log(`memory: ${Math.round(before.charged / MB)} MB before, peak ${Math.round(peak.charged / MB)} MB (resident sets added up ${Math.round(peak.rss / MB)} MB): ${Math.round((peak.charged - before.charged) / STREAMS / 1024)} KB a stream`);
    log(`GC while the streams ran: ${Math.round(gc.allocatedMB)} MB allocated, ${Math.round(gc.promotedMB)} MB promoted, ${gc.scavenges} scavenges (${Math.round(gc.scavengeMs)} ms); mark-compacts: ${gc.markCompacts.join(', ') || 'none'}`);
    if (SNAPSHOT) perStreamKinds(state.snapshots[0], state.snapshots[1]);
  } finally {
    abortAllStreams();
    await stopAll(5000).catch(() => undefined);
    for (const file of state.snapshots) rmSync(file, { force: true });
    if (state.db) await stack.dropDatabase(state.db.name).catch(() => undefined);
    if (state.redis) await stack.releaseRedisDb(state.redis).catch(() => undefined);
    if (state.baseline) stack.removeBaseline(state.baseline);
  }
}

main().catch((error) => {
  log(`stream-memory failed: ${error.stack || error.message}`);
  killAllSync();
  process.exit(1);
});
