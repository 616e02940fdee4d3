/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Turns a results object into: the verdict on each target of the benchmark issue, markdown tables
// (results.md and stdout), and a hand-written SVG chart.
// The targets (report-targets.js), the tables (report-tables.js), the before/after comparison
// (report-before-after.js) and the chart (report-chart.js) have files of their own.
const { f } = require('./report-format');
const { evaluateTargets } = require('./report-targets');
const { targetsTable, throughputTable, addedLatencyTable, streamingTable, resourcesTable, concurrentStreamsTable, dialectsTable, cloudSigningTable, responseCacheTable } = require('./report-tables');
const { beforeAfter, beforeAfterTable, keyWords } = require('./report-before-after');
const { chart } = require('./report-chart');

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
    ['Cloud credentials: CPU per call over an unsigned one (in process, the built gateway code)', cloudSigningTable(results)],
    ['Response cache: a hit against the direct upstream, a miss against the cache off', responseCacheTable(results)],
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

module.exports = { evaluateTargets, tables, markdown, chart, beforeAfter };
