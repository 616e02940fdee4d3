/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The stages of `npm run bench`, in the order run.js runs them. Each gets the run: its results
// (filled in place), the plan, the systems started and the OpenAI-protocol targets.
const stack = require('./stack');
const { runLoad, mergeLoadPoints, mb } = require('./load');
const { streamLatency, mergeStreamPoints, holdStreams } = require('./streams');
const { sleep, readRss } = require('./proc');
const { diff, round } = require('./stats');
const { log, rotate, byName, fmt, streamingPrompt, calibrate, assertAlive } = require('./run-support');
const { cloudSigning } = require('./cloud-signing');
const { responseCache } = require('./response-cache');

async function warmUp({ results, plan: PLAN, systems: { rosetta, baseline, portkey }, targets }) {
  for (const target of targets) await runLoad(target, { connections: 64, durationS: PLAN.warmupS });
  results.idle.afterWarmup = { rosettaRssMB: mb(readRss(rosetta.pid)), portkeyRssMB: mb(readRss(portkey.pid)) };
  if (baseline) results.idle.afterWarmup.baselineRssMB = mb(readRss(baseline.pid));
}

async function throughput({ results, plan: PLAN, systems, targets }) {
  let turn = 0;
  for (const connections of PLAN.connections) {
    calibrate(results, `throughput c=${connections}`);
    // A short discarded run per target at this connection count first: opening that many
    // client and upstream connections at once is a transient of its own (kept in `coldStart`).
    const cold = {};
    for (const target of rotate(targets, turn)) {
      assertAlive(systems);
      cold[target.name] = await runLoad(target, { connections, durationS: PLAN.pointWarmupS });
    }
    const parts = Object.fromEntries(targets.map((t) => [t.name, []]));
    for (let round = 0; round < PLAN.throughputRounds; round += 1) {
      for (const target of rotate(targets, turn++)) {
        assertAlive(systems);
        const part = await runLoad(target, { connections, durationS: PLAN.throughputS });
        parts[target.name].push(part);
        log(`  c=${connections} ${target.name.padEnd(16)} ${fmt(part.rps)} req/s  p50 ${fmt(part.latencyMs.p50, 2)}  p99 ${fmt(part.latencyMs.p99, 2)} ms  errors ${part.errors}`);
        await sleep(PLAN.pauseMs);
      }
    }
    const points = targets.map((t) => {
      const point = mergeLoadPoints(parts[t.name]);
      const c = cold[t.name];
      point.coldStart = { durationS: c.durationS, rps: c.rps, errors: c.errors, latencyMs: c.latencyMs, firstResponseMs: c.firstResponseMs };
      return point;
    });
    results.throughput.push({ connections, points });
  }
}

async function addedLatency({ results, plan: PLAN, systems, targets }) {
  let turn = 0;
  for (const rate of PLAN.rates) {
    const connections = Math.max(1, Math.round(rate / PLAN.perConnectionRate));
    const parts = Object.fromEntries(targets.map((t) => [t.name, []]));
    for (let round = 0; round < PLAN.rateRounds; round += 1) {
      for (const target of rotate(targets, turn++)) {
        assertAlive(systems);
        const part = await runLoad(target, { connections, durationS: PLAN.rateS, overallRate: rate });
        parts[target.name].push(part);
        log(`  ${rate} req/s ${target.name.padEnd(16)} achieved ${fmt(part.rps)}  p50 ${fmt(part.latencyMs.p50, 2)}  p99 ${fmt(part.latencyMs.p99, 2)} ms  errors ${part.errors}`);
        await sleep(PLAN.pauseMs);
      }
    }
    const points = targets.map((t) => mergeLoadPoints(parts[t.name]));
    const named = byName(points);
    const direct = named.direct;
    const added = {};
    for (const name of targets.map((t) => t.name).filter((n) => n !== 'direct')) {
      const p = named[name];
      added[name] = {
        p50: diff(p.latencyMs.p50, direct.latencyMs.p50),
        p90: diff(p.latencyMs.p90, direct.latencyMs.p90),
        p99: diff(p.latencyMs.p99, direct.latencyMs.p99),
        rateSustained: p.rps >= 0.95 * rate,
      };
    }
    results.addedLatency.push({ rate, connections, points: targets.map((t) => named[t.name]), added });
  }
}

function resources({ results, targets }) {
  const at1000 = results.addedLatency.find((r) => r.rate === 1000);
  const at64 = results.throughput.find((r) => r.connections === 64);
  for (const name of ['rosetta', 'rosetta-baseline', 'portkey', 'floor', 'direct'].filter((n) => targets.some((t) => t.name === n))) {
    const fixed = at1000 && byName(at1000.points)[name];
    const saturated = at64 && byName(at64.points)[name];
    results.resources[name] = {
      at1000rps: fixed && fixed.resources && {
        achievedRps: fixed.rps,
        rssMeanMB: fixed.resources.rssMeanMB,
        rssPeakMB: fixed.resources.rssPeakMB,
        cpuCores: fixed.resources.cpuCores,
        cpuCoresPer1000rps: fixed.rps ? round(fixed.resources.cpuCores / (fixed.rps / 1000), 3) : null,
      },
      at64connections: saturated && saturated.resources && {
        rps: saturated.rps,
        rssPeakMB: saturated.resources.rssPeakMB,
        cpuCores: saturated.resources.cpuCores,
        cpuCoresPer1000rps: saturated.rps ? round(saturated.resources.cpuCores / (saturated.rps / 1000), 3) : null,
      },
    };
  }
}

async function streaming({ results, plan: PLAN, systems }) {
  const prompt = streamingPrompt(PLAN.stream);
  const streamTargets = stack.openAiTargets(systems, { stream: true, prompt });
  const parts = Object.fromEntries(streamTargets.map((t) => [t.name, []]));
  let turn = 0;
  for (let round = 0; round < PLAN.stream.rounds; round += 1) {
    for (const target of rotate(streamTargets, turn++)) {
      assertAlive(systems);
      const part = await streamLatency(target, { count: PLAN.stream.count, concurrency: PLAN.stream.concurrency });
      parts[target.name].push(part);
      log(`  ${target.name.padEnd(16)} ttft p50 ${fmt(part.ttftMs.p50, 2)} p99 ${fmt(part.ttftMs.p99, 2)}  gap p50 ${fmt(part.gapMs.p50, 2)} p99 ${fmt(part.gapMs.p99, 2)} ms  errors ${part.errors}`);
      await sleep(PLAN.pauseMs);
    }
  }
  const points = streamTargets.map((t) => mergeStreamPoints(parts[t.name]));
  const named = byName(points);
  const added = {};
  for (const name of streamTargets.map((t) => t.name).filter((n) => n !== 'direct')) {
    const p = named[name];
    const d = named.direct;
    added[name] = {
      ttftP50: diff(p.ttftMs.p50, d.ttftMs.p50),
      ttftP99: diff(p.ttftMs.p99, d.ttftMs.p99),
      firstEventP50: diff(p.firstEventMs.p50, d.firstEventMs.p50),
      gapP50: diff(p.gapMs.p50, d.gapMs.p50),
      gapP99: diff(p.gapMs.p99, d.gapMs.p99),
      gapMean: diff(p.gapMs.mean, d.gapMs.mean),
    };
  }
  results.streaming = { settings: PLAN.stream, points: streamTargets.map((t) => named[t.name]), added };
}

async function dialects({ results, plan: PLAN, systems }) {
  const { sim, rosetta, baseline } = systems;
  const pairs = [['A', 'openai'], ['A', 'anthropic'], ['B', 'anthropic'], ['B', 'openai'], ['C', 'gemini'], ['C', 'openai']];
  // Each pair through Rosetta and, with a baseline, through the baseline right after or before
  // (the order alternates), so both meet the same machine.
  const groups = [
    ...['openai', 'anthropic', 'gemini'].map((protocol) => [stack.directProtocolTarget(sim, protocol)]),
    ...pairs.map(([dialect, protocol], i) =>
      rotate([stack.dialectTarget(rosetta, dialect, protocol), ...(baseline ? [stack.dialectTarget(baseline, dialect, protocol)] : [])], i),
    ),
  ];
  for (const target of groups.flat()) await stack.preflight(target);
  for (const group of groups) {
    for (const target of group) {
      assertAlive(systems);
      await runLoad(target, { connections: PLAN.dialectConnections, durationS: PLAN.pointWarmupS });
      const point = await runLoad(target, { connections: PLAN.dialectConnections, durationS: PLAN.dialectS });
      point.dialect = target.dialect || null;
      point.protocol = target.protocol;
      point.gateway = target.gateway || null;
      results.dialects.push(point);
      log(`  ${target.name.padEnd(28)} ${fmt(point.rps)} req/s  p50 ${fmt(point.latencyMs.p50, 2)}  p99 ${fmt(point.latencyMs.p99, 2)} ms  errors ${point.errors}`);
      await sleep(PLAN.pauseMs);
    }
  }
}

async function concurrentStreams({ results, plan: PLAN, systems }) {
  const prompt = streamingPrompt({ words: PLAN.hold.words, tokensPerSecond: PLAN.hold.tokensPerSecond });
  const streamTargets = byName(stack.openAiTargets(systems, { stream: true, prompt }).map((t) => ({ ...t, target: t.name })));
  const streamSeconds = PLAN.hold.words / PLAN.hold.tokensPerSecond;
  for (const name of PLAN.hold.targets) {
    assertAlive(systems);
    const target = streamTargets[name];
    if (!target) continue;
    const before = mb(readRss(target.pid));
    const point = await holdStreams(target, { count: PLAN.hold.count, rampMs: PLAN.hold.rampMs, timeoutMs: (streamSeconds + 60) * 1000 });
    point.rssBeforeMB = before;
    point.streamSeconds = streamSeconds;
    results.concurrentStreams.push(point);
    log(`  ${name.padEnd(16)} max open ${point.maxOpen}/${point.streams}  completed ${point.completed}  errors ${point.errors}  RSS before ${fmt(before)} peak ${fmt(point.rssPeakMB)} MB`);
    await sleep(1000);
  }
}

async function cloudCredentials({ results, systems }) {
  results.cloudSigning = await cloudSigning(systems.rosetta.root || stack.ROOT);
  const added = results.cloudSigning.addedCpuMicros;
  log(`  added CPU per call: bedrock SigV4 ${fmt(added['bedrock-sigv4'], 1)} µs, vertex bearer ${fmt(added['vertex-bearer'], 1)} µs; token fetches ${results.cloudSigning.tokenFetches}`);
}

/** The stages by name, in order. */
function stagesOf(plan) {
  return [
    ['warm-up', warmUp],
    ['throughput', throughput],
    ['added latency at fixed rates', addedLatency],
    ['resources per 1,000 req/s', resources],
    ['streaming: time to first token and gaps', streaming],
    ['dialects x upstream protocols', dialects],
    [`${plan.hold.count} concurrent open streams`, concurrentStreams],
    ['cloud credentials per call', cloudCredentials],
    ['response cache: hits and misses', responseCache],
  ];
}

module.exports = { stagesOf };
