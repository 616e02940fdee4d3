/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Rosetta (after) against `rosetta-baseline` (before), point by point (BENCH_BASELINE).
const { round } = require('./stats');
const { BASELINE, byName, f, signed, table } = require('./report-format');

function ratio(after, before) {
  return after === null || after === undefined || !before ? null : round(after / before, 3);
}

function delta(after, before) {
  return after === null || after === undefined || before === null || before === undefined ? null : round(after - before, 3);
}

/** How each gateway's key was set up, in words. */
function keyWords(key) {
  if (!key) return 'an enterprise key';
  const words = {
    enterprise: 'an enterprise key (unlimited RPM/TPM, no budget)',
    limited: 'a key with finite, never-reached RPM and TPM (both Redis checks run)',
    budget: 'a key with finite, never-reached RPM and TPM, a key dollar budget and a team with a dollar budget (both budgets held and settled on every request)',
    guarded: 'an enterprise key with every built-in guardrail check (PII and secrets, redacting) on input and output',
  }[key.kind];
  return key.fallback ? `${words}; \`${key.requested}\` was asked, but this commit has no budgets` : words;
}

/**
 * Rosetta (after) against `rosetta-baseline` (before) at every point of the run: rows of
 * {group, measure, before, after, change, unit}; `change` is after ÷ before for rates and
 * after − before for latencies (ms). Null without a baseline.
 */
function beforeAfter(results) {
  const setup = results.setup || {};
  if (!setup.baseline) return null;
  const rows = [];
  const add = (group, measure, before, after, kind, digits = 1) => rows.push({ group, measure, before, after, kind, digits, change: kind === 'ratio' ? ratio(after, before) : delta(after, before) });
  for (const level of results.throughput || []) {
    const n = byName(level.points);
    const a = n.rosetta;
    const b = n[BASELINE];
    if (!a || !b) continue;
    add('throughput', `req/s at ${level.connections} connections (rounds: before ${(b.roundsRps || []).map((v) => f(v, 0)).join(' / ')}; after ${(a.roundsRps || []).map((v) => f(v, 0)).join(' / ')})`, b.rps, a.rps, 'ratio');
    add('throughput', `p50 ms at ${level.connections} connections`, b.latencyMs.p50, a.latencyMs.p50, 'delta', 2);
    add('throughput', `p99 ms at ${level.connections} connections`, b.latencyMs.p99, a.latencyMs.p99, 'delta', 2);
    if (a.errors || b.errors) add('throughput', `errors at ${level.connections} connections`, b.errors, a.errors, 'delta', 0);
  }
  for (const level of results.addedLatency || []) {
    const a = level.added.rosetta;
    const b = level.added[BASELINE];
    if (!a || !b) continue;
    const n = byName(level.points);
    add('added latency', `achieved req/s at ${level.rate} req/s`, n[BASELINE].rps, n.rosetta.rps, 'ratio');
    for (const pct of ['p50', 'p90', 'p99']) add('added latency', `added ${pct} ms at ${level.rate} req/s`, b[pct], a[pct], 'delta', 2);
  }
  if (results.streaming) {
    const a = results.streaming.added.rosetta;
    const b = results.streaming.added[BASELINE];
    if (a && b) {
      add('streaming', 'added TTFT p50 ms', b.ttftP50, a.ttftP50, 'delta', 2);
      add('streaming', 'added TTFT p99 ms', b.ttftP99, a.ttftP99, 'delta', 2);
      add('streaming', 'added gap p50 ms', b.gapP50, a.gapP50, 'delta', 2);
      add('streaming', 'added gap p99 ms', b.gapP99, a.gapP99, 'delta', 2);
    }
  }
  const ra = (results.resources || {}).rosetta;
  const rb = (results.resources || {})[BASELINE];
  if (ra && rb) {
    const at = (r, k, x) => r && r[k] && r[k][x];
    add('CPU and memory', 'CPU cores per 1,000 req/s at 64 connections', at(rb, 'at64connections', 'cpuCoresPer1000rps'), at(ra, 'at64connections', 'cpuCoresPer1000rps'), 'ratio', 3);
    add('CPU and memory', 'CPU cores per 1,000 req/s at the 1,000 req/s rate', at(rb, 'at1000rps', 'cpuCoresPer1000rps'), at(ra, 'at1000rps', 'cpuCoresPer1000rps'), 'ratio', 3);
    add('CPU and memory', 'peak RSS MB at 64 connections', at(rb, 'at64connections', 'rssPeakMB'), at(ra, 'at64connections', 'rssPeakMB'), 'ratio');
  }
  const idle = results.idle || {};
  if (idle.baselineRssMB !== undefined) add('CPU and memory', 'idle RSS MB', idle.baselineRssMB, idle.rosettaRssMB, 'ratio');
  const holds = byName(results.concurrentStreams || []);
  if (holds.rosetta && holds[BASELINE]) {
    add('2,000 streams', 'peak RSS MB', holds[BASELINE].rssPeakMB, holds.rosetta.rssPeakMB, 'ratio');
    add('2,000 streams', 'max open at once', holds[BASELINE].maxOpen, holds.rosetta.maxOpen, 'delta', 0);
    add('2,000 streams', 'errors', holds[BASELINE].errors, holds.rosetta.errors, 'delta', 0);
  }
  const dialects = (results.dialects || []).filter((p) => p.dialect);
  for (const a of dialects.filter((p) => (p.gateway || 'rosetta') === 'rosetta')) {
    const b = dialects.find((p) => p.gateway === BASELINE && p.dialect === a.dialect && p.protocol === a.protocol);
    if (b) add('dialects (64 connections)', `${a.dialect} → ${a.protocol} req/s`, b.rps, a.rps, 'ratio');
  }
  return rows;
}

function beforeAfterTable(results) {
  const rows = beforeAfter(results);
  if (!rows) return null;
  const b = results.setup.baseline;
  const head = `Before = \`rosetta-baseline\`, commit ${b.commit.slice(0, 7)} (${b.subject}), ${keyWords(b.key)}. ` +
    `After = \`rosetta\`, ${results.versions.rosettaRef ? `commit ${results.versions.rosettaCommit} (\`BENCH_REF=${results.versions.rosettaRef}\`, built in a temporary worktree)` : results.versions.rosettaCommit || 'this checkout'}${results.versions.rosettaWorkTreeChanges && results.versions.rosettaWorkTreeChanges.length ? ` plus ${results.versions.rosettaWorkTreeChanges.length} uncommitted file(s)` : ''}, ${keyWords(results.setup.rosettaKey)}. ` +
    'Both measured in this run, interleaved point by point. Change: after ÷ before (×) for rates, memory and CPU; after − before (ms) for latencies.';
  const text = table(
    ['', 'measure', 'before', 'after', 'change'],
    rows.map((r) => [
      r.group,
      r.measure,
      f(r.before, r.digits),
      f(r.after, r.digits),
      r.change === null ? '–' : r.kind === 'ratio' ? `×${f(r.change, 3)}` : signed(r.change, r.digits),
    ]),
  );
  return `${head}\n\n${text}`;
}

module.exports = { beforeAfter, beforeAfterTable, keyWords };
