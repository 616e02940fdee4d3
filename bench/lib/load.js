/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// HTTP load through autocannon (as a library). Latencies are taken from autocannon's per-response
// events (fractional milliseconds from process.hrtime), not its integer-millisecond histogram, so
// sub-millisecond differences between targets are visible. Only 2xx responses count as latencies;
// everything else is an error.
const autocannon = require('autocannon');
const { summarise, round } = require('./stats');
const { startSampler } = require('./proc');

const active = new Set();

/** Stops every load still running (Ctrl-C, failure). */
function stopAllLoads() {
  for (const instance of active) {
    try {
      instance.stop();
    } catch {
      /* already stopped */
    }
  }
}

/**
 * One load point against one target.
 * target: {name, url, headers, body, nextBody?, pid?}; opts: {connections, durationS, overallRate?}.
 * Returns throughput (2xx per second), error counts, exact latency percentiles, and, when the
 * target has a pid, its RSS and CPU over the point.
 */
async function runLoad(target, { connections, durationS, overallRate }) {
  const latencies = [];
  const steady = [];
  const firsts = [];
  const seenClients = new Set();
  const statuses = {};
  const sampler = target.pid ? startSampler(target.pid) : null;
  const clientCpu = process.cpuUsage();
  const clientWall = process.hrtime.bigint();
  const options = {
    url: target.url,
    method: 'POST',
    headers: target.headers,
    body: target.body,
    connections,
    duration: durationS,
    timeout: 10,
    pipelining: 1,
  };
  if (overallRate) options.overallRate = overallRate;
  // A target whose every request differs (the response cache's misses): a new body per request.
  if (target.nextBody) options.requests = [{ setupRequest: (request) => ({ ...request, body: target.nextBody() }) }];
  const instance = autocannon(options);
  active.add(instance);
  instance.on('response', (client, statusCode, _bytes, responseTime) => {
    statuses[statusCode] = (statuses[statusCode] || 0) + 1;
    const first = !seenClients.has(client);
    if (first) seenClients.add(client);
    if (statusCode >= 200 && statusCode < 300) {
      latencies.push(responseTime);
      (first ? firsts : steady).push(responseTime);
    }
  });
  let result;
  try {
    result = await instance;
  } finally {
    active.delete(instance);
  }
  const resources = sampler ? sampler.stop() : null;
  const used = process.cpuUsage(clientCpu);
  const clientCpuCores = (used.user + used.system) / 1e3 / (Number(process.hrtime.bigint() - clientWall) / 1e6);
  const ok = result['2xx'];
  const errors = result.errors + result.non2xx;
  const point = {
    target: target.name,
    connections: overallRate ? Math.min(connections, overallRate) : connections,
    overallRate: overallRate || null,
    durationS: result.duration,
    requests: ok + result.non2xx,
    ok,
    rps: round(ok / result.duration, 1),
    errors,
    connErrors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statuses,
    latencyMs: summarise(latencies),
    // The same without each connection's first response (which includes waiting to be accepted),
    // and those first responses alone.
    steadyLatencyMs: summarise(steady),
    firstResponseMs: summarise(firsts),
    // autocannon's own histogram (integer ms; with a rate, corrected for coordinated omission).
    autocannonLatencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    resources: resources && {
      rssMeanMB: mb(resources.rssMeanBytes),
      rssPeakMB: mb(resources.rssPeakBytes),
      cpuCores: round(resources.cpuCores, 3),
      cpuSeconds: round(resources.cpuSeconds, 3),
      wallSeconds: round(resources.wallSeconds, 3),
    },
    // The load generator's own CPU (this process), to show when the client is the limit.
    clientCpuCores: round(clientCpuCores, 3),
  };
  // Raw latencies for `mergeLoadPoints`, kept out of JSON.
  Object.defineProperty(point, 'samples', { value: { latencies, steady, firsts }, enumerable: false });
  return point;
}

/**
 * Several rounds of the same target and load, interleaved with other targets, as one point:
 * counts and durations added, latencies pooled, req/s of each round kept to show the spread.
 */
function mergeLoadPoints(points) {
  if (points.length === 1) return { ...points[0], rounds: 1, roundsRps: [points[0].rps] };
  const sum = (pick) => points.reduce((a, p) => a + pick(p), 0);
  const durationS = round(sum((p) => p.durationS), 2);
  const ok = sum((p) => p.ok);
  const statuses = {};
  for (const p of points) for (const [code, n] of Object.entries(p.statuses)) statuses[code] = (statuses[code] || 0) + n;
  const withResources = points.filter((p) => p.resources);
  const cpuSeconds = withResources.reduce((a, p) => a + (p.resources.cpuSeconds || 0), 0);
  const wallSeconds = withResources.reduce((a, p) => a + (p.resources.wallSeconds || 0), 0);
  return {
    target: points[0].target,
    connections: points[0].connections,
    overallRate: points[0].overallRate,
    rounds: points.length,
    roundsRps: points.map((p) => p.rps),
    durationS,
    requests: sum((p) => p.requests),
    ok,
    rps: round(ok / durationS, 1),
    errors: sum((p) => p.errors),
    connErrors: sum((p) => p.connErrors),
    timeouts: sum((p) => p.timeouts),
    non2xx: sum((p) => p.non2xx),
    statuses,
    latencyMs: summarise(points.flatMap((p) => p.samples.latencies)),
    steadyLatencyMs: summarise(points.flatMap((p) => p.samples.steady)),
    firstResponseMs: summarise(points.flatMap((p) => p.samples.firsts)),
    autocannonLatencyMs: points.map((p) => p.autocannonLatencyMs),
    resources: withResources.length
      ? {
          rssMeanMB: round(withResources.reduce((a, p) => a + p.resources.rssMeanMB, 0) / withResources.length, 1),
          rssPeakMB: Math.max(...withResources.map((p) => p.resources.rssPeakMB)),
          cpuCores: wallSeconds ? round(cpuSeconds / wallSeconds, 3) : null,
          cpuSeconds: round(cpuSeconds, 3),
          wallSeconds: round(wallSeconds, 3),
        }
      : null,
    clientCpuCores: round(sum((p) => p.clientCpuCores) / points.length, 3),
  };
}

function mb(bytes) {
  return bytes === null || bytes === undefined ? null : round(bytes / 1024 / 1024, 1);
}

module.exports = { runLoad, mergeLoadPoints, stopAllLoads, mb };
