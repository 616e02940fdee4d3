/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The verdict on each target of the benchmark issue (issue 7).
const { round } = require('./stats');
const { byName, f, signed } = require('./report-format');

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

module.exports = { evaluateTargets };
