/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// One markdown table per stage of the run.
const { TARGET_NAMES, BASELINE, byName, f, signed, verdict, table } = require('./report-format');

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

function cloudSigningTable(results) {
  const c = results.cloudSigning;
  if (!c) return '(not measured in this run)';
  const names = { unsigned: 'unsigned (a key header)', 'bedrock-sigv4': 'Bedrock, SigV4', 'vertex-bearer': 'Vertex, cached bearer token' };
  return table(
    ['credentials', 'CPU µs per call', 'added over unsigned µs', `within ${c.ceilingMicros} µs`],
    Object.entries(c.cpuMicrosPerCall).map(([name, micros]) => {
      const added = c.addedCpuMicros[name];
      return [names[name] || name, f(micros, 1), added === undefined ? '–' : f(added, 1), added === undefined ? '–' : added <= c.ceilingMicros ? 'yes' : '**no**'];
    }),
  ) + `\n\n${c.calls.toLocaleString('en')} calls × ${c.rounds} rounds per variant (median), a ${c.bodyBytes}-byte body; token fetches for all Vertex calls: ${c.tokenFetches}.`;
}

function responseCacheTable(results) {
  const c = results.responseCache;
  if (!c) return '(not measured in this run)';
  const t = c.throughput;
  const l = c.latency;
  const rows = [
    ['direct upstream', f(t.direct.rps), f(t.direct.latencyMs.p50, 2), '–', '–'],
    ['Rosetta, cache off', f(t.off.rps), f(t.off.latencyMs.p50, 2), f(l.off.latencyMs.p50, 3), f(l.off.latencyMs.p99, 3)],
    ['Rosetta, cache hit', f(t.hit.rps), f(t.hit.latencyMs.p50, 2), '–', '–'],
    ['Rosetta, cache miss (stored)', '–', '–', f(l.miss.latencyMs.p50, 3), f(l.miss.latencyMs.p99, 3)],
  ];
  const s = c.settings;
  return (
    table(['', `req/s at c=${s.connections}`, 'p50 ms', `p50 ms at ${s.rate} req/s`, `p99 ms at ${s.rate} req/s`], rows) +
    `\n\nA hit answers at **${f(c.hitOverDirect, 2)}×** the direct upstream's throughput (bar: ≥ ${c.bars.hitOverDirect}×). ` +
    (c.missCost
      ? `A miss adds **${f(c.missAddedMs, 3)} ms** before the upstream call (bar: ≤ ${c.bars.missCeilingMs} ms): ${f(c.missCost.addedCpuMicros, 1)} µs of CPU for its ticket on a ${c.missCost.bodyBytes}-byte request (the built code, median of ${c.missCost.rounds} × ${c.missCost.calls.toLocaleString('en')} calls) and the lookup's Redis round trip, ${f(c.missCost.redisGetMicrosP50, 1)} µs p50 on an idle connection; the answer's store is sent, not awaited, as the response is written. `
      : '') +
    `End to end, at ${s.rate} req/s, a miss measured ${f(c.missAddedP50Ms, 3)} ms p50 over the same new requests with the cache off — within this machine's noise between rounds (2 cores shared by the load, the gateway, the simulator, Redis and PostgreSQL). ` +
    `${s.rounds} round(s) of ${s.seconds} s per point, targets rotated; every miss request is new (a counter in the prompt), and so is every cache-off request at the fixed rate.`
  );
}

module.exports = { targetsTable, throughputTable, addedLatencyTable, streamingTable, resourcesTable, concurrentStreamsTable, dialectsTable, cloudSigningTable, responseCacheTable };
