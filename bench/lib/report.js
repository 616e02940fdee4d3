/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Turns a results object into: the verdict on each target of the benchmark issue, markdown tables
// (results.md and stdout), and a hand-written SVG chart.
const { round } = require('./stats');

const TARGET_NAMES = ['direct', 'floor', 'rosetta', 'rosetta-baseline', 'portkey'];
const GATEWAYS = ['floor', 'rosetta', 'rosetta-baseline', 'portkey'];
const BASELINE = 'rosetta-baseline';

function byName(points) {
  return Object.fromEntries((points || []).filter(Boolean).map((p) => [p.target, p]));
}

function f(value, digits = 1) {
  return value === null || value === undefined || Number.isNaN(value) ? '–' : Number(value).toFixed(digits);
}

function signed(value, digits = 2) {
  if (value === null || value === undefined) return '–';
  const text = Number(value).toFixed(digits);
  return value > 0 ? `+${text}` : text;
}

// ---------------------------------------------------------------- targets

/** Each target of the issue with the measured value and whether this run met it. */
function evaluateTargets(results) {
  const targets = [];
  const t64 = (results.throughput || []).find((r) => r.connections === 64);
  const t64n = t64 ? byName(t64.points) : {};
  const ratio = t64n.rosetta && t64n.portkey && t64n.portkey.rps ? t64n.rosetta.rps / t64n.portkey.rps : null;
  targets.push({
    id: 'throughput-3x-peer',
    target: 'Throughput at 64 connections ≥ 3× the peer gateway (Portkey)',
    measured: ratio === null ? 'not measured' : `${f(ratio, 2)}× (Rosetta ${f(t64n.rosetta.rps)} req/s, Portkey ${f(t64n.portkey.rps)} req/s)`,
    value: ratio === null ? null : round(ratio, 3),
    met: ratio === null ? null : ratio >= 3,
  });

  const a200 = (results.addedLatency || []).find((r) => r.rate === 200);
  const add = a200 && a200.added && a200.added.rosetta;
  targets.push({
    id: 'added-latency-200rps',
    target: 'Added latency at 200 req/s: p50 ≤ 1 ms and p99 ≤ 5 ms',
    measured: add ? `p50 ${signed(add.p50)} ms, p99 ${signed(add.p99)} ms${add.rateSustained ? '' : ' (rate not sustained)'}` : 'not measured',
    value: add ? { p50: add.p50, p99: add.p99 } : null,
    met: add && add.p50 !== null && add.p99 !== null ? add.p50 <= 1 && add.p99 <= 5 && add.rateSustained : null,
  });

  const sAdd = results.streaming && results.streaming.added && results.streaming.added.rosetta;
  const sRos = results.streaming && byName(results.streaming.points).rosetta;
  targets.push({
    id: 'added-ttft',
    target: 'Added time to first token ≤ 2 ms (p50)',
    measured: sAdd ? `p50 ${signed(sAdd.ttftP50)} ms (p99 ${signed(sAdd.ttftP99)} ms)${sRos && sRos.errors ? `, ${sRos.errors} stream errors` : ''}` : 'not measured',
    value: sAdd ? sAdd.ttftP50 : null,
    met: sAdd && sAdd.ttftP50 !== null ? sAdd.ttftP50 <= 2 && !(sRos && sRos.errors) : null,
  });

  const hold = (results.concurrentStreams || []).find((p) => p.target === 'rosetta');
  targets.push({
    id: 'concurrent-streams-memory',
    target: '2,000 concurrent streams: RSS < 500 MB, no error',
    measured: hold
      ? `peak RSS ${f(hold.rssPeakMB)} MB, ${hold.maxOpen} open at once, ${hold.errors} errors`
      : 'not measured',
    value: hold ? { rssPeakMB: hold.rssPeakMB, maxOpen: hold.maxOpen, errors: hold.errors } : null,
    met: hold ? hold.rssPeakMB !== null && hold.rssPeakMB < 500 && hold.errors === 0 && hold.maxOpen >= hold.streams : null,
  });

  const ladder = (results.throughput || []).map((r) => ({ connections: r.connections, point: byName(r.points).rosetta })).filter((r) => r.point);
  let collapse = null;
  if (ladder.length >= 2) {
    const errors = ladder.reduce((sum, r) => sum + r.point.errors, 0);
    const growthSteps = (pick) => {
      const steps = [];
      for (let i = 1; i < ladder.length; i += 1) {
        const a = pick(ladder[i - 1].point);
        const b = pick(ladder[i].point);
        const growth = a && b ? b / a : null;
        const allowed = ladder[i].connections / ladder[i - 1].connections;
        steps.push({ from: ladder[i - 1].connections, to: ladder[i].connections, p99Growth: round(growth, 2), allowed, ok: growth !== null && growth <= allowed });
      }
      return steps;
    };
    // Strict: every response. Steady: without each connection's first response (see README).
    const steps = growthSteps((p) => p.latencyMs.p99);
    const steadySteps = growthSteps((p) => (p.steadyLatencyMs ? p.steadyLatencyMs.p99 : null));
    const rpsAt = Object.fromEntries(ladder.map((r) => [r.connections, r.point.rps]));
    collapse = {
      errors,
      steps,
      steadySteps,
      rps: rpsAt,
      met: errors === 0 && steps.every((s) => s.ok),
      steadyMet: errors === 0 && steadySteps.every((s) => s.ok),
    };
  }
  const stepText = (steps) => steps.map((s) => `${s.from}→${s.to} ×${f(s.p99Growth, 2)}`).join(', ');
  targets.push({
    id: 'no-collapse-256',
    target: 'No collapse up to 256 connections: no errors, p99 growing no worse than linearly',
    measured: collapse
      ? `${collapse.errors} errors; p99 growth (allowed ×16, ×4, ×4): all responses ${stepText(collapse.steps)}; ` +
        `without each connection's first response ${stepText(collapse.steadySteps)} (${collapse.steadyMet ? 'within' : 'beyond'} linear)`
      : 'not measured',
    value: collapse,
    met: collapse ? collapse.met : null,
  });
  return targets;
}

function verdict(met) {
  if (met === true) return '**met**';
  if (met === false) return '**not met**';
  return 'not measured';
}

// ---------------------------------------------------------------- tables

function table(header, rows) {
  const lines = [`| ${header.join(' | ')} |`, `|${header.map((h, i) => (i === 0 ? '---' : '---:')).join('|')}|`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

function targetsTable(results) {
  return table(
    ['target', 'this run', 'verdict'],
    (results.targets || []).map((t) => [t.target, t.measured, verdict(t.met)]),
  ).replace('|---:|---:|', '|---|---|');
}

function throughputTable(results) {
  const rows = [];
  for (const level of results.throughput || []) {
    const named = byName(level.points);
    for (const name of TARGET_NAMES) {
      const p = named[name];
      if (!p) continue;
      rows.push([
        String(level.connections),
        name,
        f(p.rps),
        p.roundsRps && p.roundsRps.length > 1 ? p.roundsRps.map((v) => f(v, 0)).join(' / ') : '–',
        String(p.errors),
        f(p.latencyMs.p50, 2),
        f(p.latencyMs.p99, 2),
        p.steadyLatencyMs ? f(p.steadyLatencyMs.p99, 2) : '–',
        p.firstResponseMs ? f(p.firstResponseMs.max, 0) : '–',
        p.resources ? f(p.resources.cpuCores, 2) : '–',
        p.resources ? f(p.resources.rssPeakMB) : '–',
      ]);
    }
  }
  return table(['connections', 'target', 'req/s', 'req/s by round', 'errors', 'p50 ms', 'p99 ms', 'p99 ms without first responses', 'slowest first response ms', 'CPU cores', 'peak RSS MB'], rows);
}

function addedLatencyTable(results) {
  const rows = [];
  for (const level of results.addedLatency || []) {
    const named = byName(level.points);
    for (const name of TARGET_NAMES) {
      const p = named[name];
      if (!p) continue;
      const add = level.added[name];
      rows.push([
        String(level.rate),
        name,
        f(p.rps),
        String(p.errors),
        f(p.latencyMs.p50, 2),
        f(p.latencyMs.p99, 2),
        add ? signed(add.p50) : '(baseline)',
        add ? signed(add.p99) : '(baseline)',
      ]);
    }
  }
  return table(['rate req/s', 'target', 'achieved req/s', 'errors', 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms'], rows);
}

function streamingTable(results) {
  if (!results.streaming) return '_not measured_';
  const named = byName(results.streaming.points);
  const rows = TARGET_NAMES.filter((n) => named[n]).map((name) => {
    const p = named[name];
    const add = results.streaming.added[name];
    return [
      name,
      String(p.streams),
      String(p.errors),
      f(p.ttftMs.p50, 2),
      f(p.ttftMs.p99, 2),
      add ? signed(add.ttftP50) : '(baseline)',
      add ? signed(add.ttftP99) : '(baseline)',
      f(p.gapMs.p50, 2),
      f(p.gapMs.p99, 2),
      add ? signed(add.gapP50) : '(baseline)',
      add ? signed(add.gapP99) : '(baseline)',
    ];
  });
  return table(['target', 'streams', 'errors', 'TTFT p50', 'TTFT p99', 'added TTFT p50', 'added TTFT p99', 'gap p50', 'gap p99', 'added gap p50', 'added gap p99'], rows);
}

function resourcesTable(results) {
  const rows = [];
  for (const name of ['rosetta', BASELINE, 'portkey', 'floor', 'direct']) {
    const r = results.resources && results.resources[name];
    if (!r || (!r.at1000rps && !r.at64connections)) continue;
    const a = r.at1000rps || {};
    const s = r.at64connections || {};
    rows.push([
      name === 'direct' ? 'simulator (direct)' : name === 'floor' ? 'floor proxy' : name,
      f(a.achievedRps),
      f(a.rssMeanMB),
      f(a.cpuCores, 2),
      f(a.cpuCoresPer1000rps, 2),
      f(s.rps),
      f(s.cpuCoresPer1000rps, 2),
    ]);
  }
  let text = table(['process', 'achieved req/s (1,000 target)', 'RSS MB at 1,000 req/s', 'CPU cores at 1,000 req/s', 'CPU cores per 1,000 req/s', 'req/s at 64 conn.', 'CPU cores per 1,000 req/s at 64 conn.'], rows);
  const idle = results.idle || {};
  if (idle.cpuCores) {
    text += `\n\nIdle, before any load: Rosetta ${f(idle.rosettaRssMB)} MB RSS, ${f(idle.cpuCores.rosetta, 3)} cores; ` +
      (idle.baselineRssMB !== undefined ? `Rosetta baseline ${f(idle.baselineRssMB)} MB, ${f(idle.cpuCores[BASELINE], 3)} cores; ` : '') +
      `Portkey ${f(idle.portkeyRssMB)} MB, ${f(idle.cpuCores.portkey, 3)} cores; floor proxy ${f(idle.floorRssMB)} MB, ${f(idle.cpuCores.floor, 3)} cores; simulator ${f(idle.simulatorRssMB)} MB, ${f(idle.cpuCores.simulator, 3)} cores.`;
  }
  return text;
}

function concurrentStreamsTable(results) {
  if (!results.concurrentStreams || results.concurrentStreams.length === 0) return '_not measured_';
  return table(
    ['target', 'streams', 'max open at once', 'completed', 'errors', 'RSS before MB', 'peak RSS MB', 'peak RSS while all open MB', 'CPU cores'],
    results.concurrentStreams.map((p) => [
      p.target,
      String(p.streams),
      String(p.maxOpen),
      String(p.completed),
      String(p.errors),
      f(p.rssBeforeMB),
      f(p.rssPeakMB),
      f(p.rssAllOpenPeakMB),
      f(p.cpuCores, 2),
    ]),
  );
}

function dialectsTable(results) {
  const direct = Object.fromEntries((results.dialects || []).filter((p) => !p.dialect).map((p) => [p.protocol, p]));
  return table(
    [`client dialect → upstream protocol${results.setup && results.setup.baseline ? ' (Rosetta, or the baseline where named)' : ''}`, 'req/s', 'errors', 'p50 ms', 'p99 ms', 'added p50 vs direct same protocol', 'CPU cores'],
    (results.dialects || []).map((p) => {
      const base = direct[p.protocol];
      const added = p.dialect && base ? signed(p.latencyMs.p50 - base.latencyMs.p50) : '(baseline)';
      const via = p.gateway && p.gateway !== 'rosetta' ? `, ${p.gateway}` : '';
      const label = p.dialect ? `${p.dialect} (${{ A: 'OpenAI chat', B: 'Anthropic messages', C: 'Gemini' }[p.dialect]}) → ${p.protocol}${via}` : `direct → ${p.protocol}`;
      return [label, f(p.rps), String(p.errors), f(p.latencyMs.p50, 2), f(p.latencyMs.p99, 2), added, p.resources ? f(p.resources.cpuCores, 2) : '–'];
    }),
  );
}

// ---------------------------------------------------------------- before / after

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

/** The tables alone (printed to stdout). */
function tables(results) {
  const compared = beforeAfterTable(results);
  const sections = [
    ['Targets', targetsTable(results)],
    ...(compared ? [['Before / after (`rosetta` against `rosetta-baseline`, same run)', compared]] : []),
    [`Throughput, non-streaming (closed loop, ${results.plan.throughputRounds || 1} × ${results.plan.throughputS} s per point, rounds interleaved across targets)`, throughputTable(results)],
    [`Added latency at fixed rates (${results.plan.rateRounds || 1} × ${results.plan.rateS} s per point; added = target − direct)`, addedLatencyTable(results)],
    ['Streaming: time to first token and gaps between chunks (ms)', streamingTable(results)],
    ['CPU and memory per 1,000 req/s', resourcesTable(results)],
    [`${results.plan.hold.count} concurrent open streams`, concurrentStreamsTable(results)],
    [`Dialects × upstream protocols (Rosetta, ${results.plan.dialectConnections} connections, ${results.plan.dialectS} s per point)`, dialectsTable(results)],
  ];
  let text = sections.map(([title, body]) => `### ${title}\n\n${body}`).join('\n\n');
  const cal = (results.calibration || []).map((c) => c.opsPerMs).filter((v) => v > 0);
  if (cal.length > 1) {
    text += `\n\nMachine speed during the run (a fixed JSON workload in the load generator, before each stage): ` +
      `${f(Math.min(...cal))}–${f(Math.max(...cal))} ops/ms, a spread of ${f((100 * (Math.max(...cal) - Math.min(...cal))) / Math.max(...cal), 0)}%.`;
  }
  const loads = (results.calibration || []).filter((c) => c.loadAverage).map((c) => c.loadAverage[0]);
  if (results.loadAverageAtStart || loads.length) {
    text += `\nLoad average (1 min)${results.loadAverageAtStart ? `: ${f(results.loadAverageAtStart[0], 2)} before the run (others' load; 5/15 min ${f(results.loadAverageAtStart[1], 2)} / ${f(results.loadAverageAtStart[2], 2)})` : ''}` +
      `${loads.length ? `, ${f(Math.min(...loads), 2)}–${f(Math.max(...loads), 2)} during it (the run's own processes included)` : ''}.`;
  }
  const outside = (results.cpuOutsideRun || []).filter((e) => e.otherCores !== null);
  if (outside.length) {
    const worst = outside.reduce((a, b) => (b.otherCores > a.otherCores ? b : a));
    text += `\nCPU outside the run's own processes (other users, plus PostgreSQL and Redis serving the run), by stage: ` +
      `${outside.map((e) => f(e.otherCores, 2)).join(', ')} cores (most: ${worst.stage}).`;
  }
  if (results.stageErrors && results.stageErrors.length) {
    text += `\n\n### Errors in this run\n\n${results.stageErrors.map((e) => `- ${e.stage}: ${e.error.split('\n')[0]}`).join('\n')}`;
  }
  return text;
}

function baselineWords(results) {
  const b = results.setup && results.setup.baseline;
  if (!b) return '';
  return ` **Baseline:** \`rosetta-baseline\` is commit ${b.commit.slice(0, 7)} (\`BENCH_BASELINE=${b.ref}\`), built in a temporary git worktree and started exactly like Rosetta (its own fresh database and Redis database), with ${keyWords(b.key)}.`;
}

/** `readme`: the link to docs/benchmarks/README.md from where results.md is written. */
function markdown(results, { readme = 'README.md' } = {}) {
  const m = results.machine;
  const v = results.versions;
  return `# Benchmark results

Recorded by \`${results.plan.mode === 'quick' ? 'BENCH_QUICK=1 ' : ''}npm run bench\` on ${results.generatedAt} (${results.totalSeconds} s).
How it is measured: [README.md](${readme}). Raw figures: [results.json](results.json).

![throughput and added latency](chart.svg)

**Machine:** ${m.cpuCount} × ${m.cpuModel} (${m.cpuSpeedMHz} MHz), ${m.totalMemoryGiB} GiB memory, ${m.os}.
Load generator, simulator and gateways share these cores.
**Versions:** Node ${v.node}; rosetta ${v.rosetta}${v.rosettaCommit ? ` (${v.rosettaCommit})` : ''}; @portkey-ai/gateway ${v.portkeyGateway}; autocannon ${v.autocannon}; PostgreSQL ${v.postgres || '?'}; Redis ${v.redis || '?'}.
**Upstream:** the bundled simulator, ${results.plan.simLatencyMs} ms fixed latency, request recording off. Rosetta: built \`dist/\`, fresh PostgreSQL database, Redis, ${keyWords(results.setup && results.setup.rosettaKey)} (auth and limiter on every request), \`LOG_LEVEL=warn\`.${baselineWords(results)} Portkey: \`build/start-server.js --headless\`, \`NODE_ENV=production\`, OpenAI provider with \`x-portkey-custom-host\` to the same simulator. **Floor:** \`bench/floor-proxy.js\`, a bare node:http + undici pass-through (parses and re-serialises the body, pipes the answer): the least any Node gateway adds on this machine; a reference, not a product.

${tables(results)}
`;
}

// ---------------------------------------------------------------- chart

const COLORS = { direct: '#6b7280', floor: '#16a34a', rosetta: '#2563eb', 'rosetta-baseline': '#93c5fd', portkey: '#f97316' };

function esc(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function niceMax(value) {
  if (!value || value <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * exp >= value) return step * exp;
  return 10 * exp;
}

/** Two panels: throughput vs connections (three lines), added latency p50/p99 bars. */
function chart(results) {
  const W = 960;
  const H = 440;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);

  // Panel 1: throughput vs connections (x: log2 scale).
  const p1 = { x: 70, y: 50, w: 380, h: 290 };
  const levels = (results.throughput || []).map((r) => r.connections);
  const maxRps = niceMax(Math.max(1, ...(results.throughput || []).flatMap((r) => r.points.filter(Boolean).map((p) => p.rps))));
  const xs = (c) => {
    const lo = Math.log2(Math.min(...levels));
    const hi = Math.log2(Math.max(...levels));
    return p1.x + (hi === lo ? p1.w / 2 : ((Math.log2(c) - lo) / (hi - lo)) * p1.w);
  };
  const ys = (v) => p1.y + p1.h - (v / maxRps) * p1.h;
  out.push(`<text x="${p1.x}" y="28" font-size="14" font-weight="600">Throughput, non-streaming (req/s) vs connections</text>`);
  for (let i = 0; i <= 5; i += 1) {
    const v = (maxRps * i) / 5;
    const y = ys(v);
    out.push(`<line x1="${p1.x}" y1="${y}" x2="${p1.x + p1.w}" y2="${y}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${p1.x - 8}" y="${y + 4}" text-anchor="end" fill="#374151">${Math.round(v)}</text>`);
  }
  for (const c of levels) {
    out.push(`<text x="${xs(c)}" y="${p1.y + p1.h + 18}" text-anchor="middle" fill="#374151">${c}</text>`);
  }
  out.push(`<text x="${p1.x + p1.w / 2}" y="${p1.y + p1.h + 36}" text-anchor="middle" fill="#374151">connections</text>`);
  out.push(`<line x1="${p1.x}" y1="${p1.y + p1.h}" x2="${p1.x + p1.w}" y2="${p1.y + p1.h}" stroke="#9ca3af"/>`);
  let legendX = p1.x - 40;
  TARGET_NAMES.forEach((name) => {
    const pts = (results.throughput || []).map((r) => ({ c: r.connections, p: byName(r.points)[name] })).filter((e) => e.p);
    if (pts.length === 0) return;
    out.push(`<polyline fill="none" stroke="${COLORS[name]}" stroke-width="2.5"${name === BASELINE ? ' stroke-dasharray="6 3"' : ''} points="${pts.map((e) => `${xs(e.c).toFixed(1)},${ys(e.p.rps).toFixed(1)}`).join(' ')}"/>`);
    for (const e of pts) {
      out.push(`<circle cx="${xs(e.c).toFixed(1)}" cy="${ys(e.p.rps).toFixed(1)}" r="3.5" fill="${COLORS[name]}"><title>${esc(`${name}, ${e.c} connections: ${f(e.p.rps)} req/s, p99 ${f(e.p.latencyMs.p99, 1)} ms, ${e.p.errors} errors`)}</title></circle>`);
      if ((name === 'rosetta' || name === 'portkey') && e.c > Math.min(...levels)) {
        const dy = name === 'rosetta' ? -8 : 16;
        out.push(`<text x="${(xs(e.c) - 4).toFixed(1)}" y="${(ys(e.p.rps) + dy).toFixed(1)}" text-anchor="end" font-size="10" fill="${COLORS[name]}">${Math.round(e.p.rps)}</text>`);
      }
    }
    const lx = legendX;
    legendX += Math.max(100, 34 + name.length * 6.5);
    out.push(`<rect x="${lx}" y="${H - 30}" width="14" height="4" fill="${COLORS[name]}"/>`);
    out.push(`<text x="${lx + 20}" y="${H - 24}" fill="#111827">${name === BASELINE ? `baseline ${esc(results.setup.baseline ? results.setup.baseline.commit.slice(0, 7) : '')}` : name}</text>`);
  });

  // Panel 2: added latency bars (p50, p99) at each fixed rate, Rosetta and Portkey; log-free,
  // values labelled on the bars.
  const p2 = { x: 560, y: 50, w: 360, h: 290 };
  out.push(`<text x="${p2.x - 40}" y="28" font-size="14" font-weight="600">Added latency vs direct (ms), fixed request rates</text>`);
  const groups = [];
  for (const level of results.addedLatency || []) {
    for (const pct of ['p50', 'p99']) groups.push({ label: pct, sub: `${level.rate} req/s`, values: GATEWAYS.filter((n) => level.added[n]).map((n) => ({ name: n, v: level.added[n][pct] })) });
  }
  if (results.streaming) {
    groups.push({ label: 'TTFT p50', sub: 'streaming', values: GATEWAYS.filter((n) => results.streaming.added[n]).map((n) => ({ name: n, v: results.streaming.added[n].ttftP50 })) });
  }
  const maxAdd = niceMax(Math.max(1, ...groups.flatMap((g) => g.values.map((e) => Math.abs(e.v || 0)))));
  const y2 = (v) => p2.y + p2.h - (Math.max(0, v) / maxAdd) * p2.h;
  for (let i = 0; i <= 5; i += 1) {
    const v = (maxAdd * i) / 5;
    out.push(`<line x1="${p2.x}" y1="${y2(v)}" x2="${p2.x + p2.w}" y2="${y2(v)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${p2.x - 8}" y="${y2(v) + 4}" text-anchor="end" fill="#374151">${f(v, maxAdd < 10 ? 1 : 0)}</text>`);
  }
  out.push(`<line x1="${p2.x}" y1="${p2.y + p2.h}" x2="${p2.x + p2.w}" y2="${p2.y + p2.h}" stroke="#9ca3af"/>`);
  const gw = groups.length ? p2.w / groups.length : p2.w;
  groups.forEach((g, gi) => {
    const n = Math.max(1, g.values.length);
    const bw = Math.min(26, (gw - 10) / n);
    g.values.forEach((e, bi) => {
      if (e.v === null) return;
      const x = p2.x + gi * gw + (gw - n * bw) / 2 + bi * bw;
      const top = y2(e.v);
      const height = p2.y + p2.h - top;
      out.push(`<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${Math.max(0.5, height).toFixed(1)}" fill="${COLORS[e.name]}"><title>${esc(`${e.name} ${g.label}: ${signed(e.v)} ms`)}</title></rect>`);
      out.push(`<text x="${(x + bw / 2 - 1).toFixed(1)}" y="${(top - 4).toFixed(1)}" text-anchor="middle" font-size="9" fill="#111827">${f(e.v, Math.abs(e.v) >= 10 ? 0 : 1)}</text>`);
    });
    out.push(`<text x="${(p2.x + gi * gw + gw / 2).toFixed(1)}" y="${p2.y + p2.h + 16}" text-anchor="middle" font-size="11" fill="#374151">${esc(g.label)}</text>`);
    out.push(`<text x="${(p2.x + gi * gw + gw / 2).toFixed(1)}" y="${p2.y + p2.h + 30}" text-anchor="middle" font-size="10" fill="#6b7280">${esc(g.sub)}</text>`);
  });
  const target = (results.targets || []).find((t) => t.id === 'added-latency-200rps');
  // Target lines: 1 ms (p50 at 200 req/s), 2 ms (TTFT p50), 5 ms (p99 at 200 req/s).
  const lines = [
    { v: 1, color: '#16a34a', label: '1 ms: p50 target' },
    { v: 2, color: '#7c3aed', label: '2 ms: TTFT target' },
    { v: 5, color: '#dc2626', label: '5 ms: p99 target' },
  ];
  lines.forEach((line, i) => {
    if (line.v > maxAdd) return;
    out.push(`<line x1="${p2.x}" y1="${y2(line.v)}" x2="${p2.x + p2.w}" y2="${y2(line.v)}" stroke="${line.color}" stroke-dasharray="4 3"/>`);
    const lx = p2.x + i * 120;
    out.push(`<line x1="${lx}" y1="${H - 28}" x2="${lx + 16}" y2="${H - 28}" stroke="${line.color}" stroke-dasharray="4 3" stroke-width="2"/>`);
    out.push(`<text x="${lx + 20}" y="${H - 24}" font-size="10" fill="#111827">${line.label}</text>`);
  });
  const note = `${results.plan.mode} run ${results.generatedAt.slice(0, 10)} · ${results.machine.cpuCount} cores · Node ${results.machine.node}${target ? ` · 200 req/s target ${target.met ? 'met' : 'not met'}` : ''}`;
  out.push(`<text x="${W - 20}" y="12" text-anchor="end" font-size="10" fill="#6b7280">${esc(note)}</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

module.exports = { evaluateTargets, tables, markdown, chart, beforeAfter };
