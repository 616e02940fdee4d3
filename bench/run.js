#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `npm run bench`: Rosetta side by side with the direct upstream and a peer gateway, in one run.
//
// Starts the upstream simulator (fixed latency), Rosetta as in production (built, fresh PostgreSQL
// database, Redis, auth and limits on) and @portkey-ai/gateway (OpenAI route to the same
// simulator), then measures from the client side, alternating targets point by point (and rotating
// their order) so drift hits all of them alike. Writes docs/benchmarks/results.{json,md} and
// chart.svg, and prints the tables. Everything started is stopped, and the database dropped, even
// on failure or Ctrl-C.
//
// BENCH_QUICK=1: a ~2.5-minute smoke run with shorter points (and 2,000 streams through Rosetta only).
// BENCH_OUT_DIR: where to write (default docs/benchmarks).
const os = require('node:os');
const { mkdirSync, writeFileSync, readFileSync, existsSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const stack = require('./lib/stack');
const { runLoad, mergeLoadPoints, stopAllLoads, mb } = require('./lib/load');
const { streamLatency, mergeStreamPoints, holdStreams, abortAllStreams } = require('./lib/streams');
const { stopAll, killAllSync, sleep, readRss, startSampler } = require('./lib/proc');
const { diff, round } = require('./lib/stats');
const report = require('./lib/report');

const QUICK = process.env.BENCH_QUICK === '1';
const OUT_DIR = process.env.BENCH_OUT_DIR || join(stack.ROOT, 'docs', 'benchmarks');

const PLAN = QUICK
  ? {
      mode: 'quick',
      simLatencyMs: 20,
      warmupS: 2,
      connections: [1, 16, 64, 256],
      throughputS: 2,
      throughputRounds: 1,
      pointWarmupS: 0.5,
      rates: [200, 1000],
      rateS: 2.5,
      rateRounds: 1,
      perConnectionRate: 25,
      stream: { count: 60, rounds: 1, concurrency: 4, words: 20, tokensPerSecond: 200 },
      dialectS: 1.5,
      dialectConnections: 64,
      hold: { count: 2000, rampMs: 3000, words: 16, tokensPerSecond: 2, targets: ['rosetta'] },
      pauseMs: 300,
    }
  : {
      mode: 'full',
      simLatencyMs: 20,
      warmupS: 3,
      connections: [1, 16, 64, 256],
      throughputS: 3.5,
      throughputRounds: 3,
      pointWarmupS: 1.5,
      rates: [200, 1000],
      rateS: 5,
      rateRounds: 2,
      perConnectionRate: 25,
      stream: { count: 100, rounds: 3, concurrency: 4, words: 20, tokensPerSecond: 200 },
      dialectS: 4,
      dialectConnections: 64,
      hold: { count: 2000, rampMs: 4000, words: 24, tokensPerSecond: 2, targets: ['direct', 'floor', 'rosetta', 'portkey'] },
      pauseMs: 500,
    };

const state = { db: null, redis: null, cleaning: null };

function log(message) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** `items` rotated left by `n`: the order of targets changes from one point to the next. */
function rotate(items, n) {
  const k = n % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

function byName(points) {
  return Object.fromEntries(points.map((p) => [p.target, p]));
}

function fmt(value, digits = 1) {
  return value === null || value === undefined ? '–' : Number(value).toFixed(digits);
}

async function cleanup() {
  if (!state.cleaning) {
    state.cleaning = (async () => {
      stopAllLoads();
      abortAllStreams();
      await stopAll(8000).catch((error) => log(`stopping children: ${error.message}`));
      if (state.db) {
        await stack.dropDatabase(state.db.name).then(
          () => log(`dropped database ${state.db.name}`),
          (error) => log(`could not drop database ${state.db.name}: ${error.message}`),
        );
      }
      if (state.redis) {
        await stack.releaseRedisDb(state.redis).then(
          () => log(`emptied Redis database ${state.redis.db}`),
          (error) => log(`could not empty Redis database ${state.redis.db}: ${error.message}`),
        );
      }
    })();
  }
  return state.cleaning;
}

function installSignalHandlers() {
  let interrupted = false;
  const onSignal = (signal) => {
    if (interrupted) {
      killAllSync();
      process.exit(130);
    }
    interrupted = true;
    log(`${signal}: stopping, cleaning up (again to force)`);
    cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAllSync);
}

function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(require.resolve(`${name}/package.json`, { paths: [stack.ROOT] }), 'utf8')).version;
  } catch {
    return null;
  }
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: stack.ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

function machine() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0] ? cpus[0].model : null,
    cpuCount: cpus.length,
    cpuSpeedMHz: cpus[0] ? cpus[0].speed : null,
    availableParallelism: os.availableParallelism ? os.availableParallelism() : cpus.length,
    totalMemoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

function streamingPrompt({ words, tokensPerSecond }) {
  const text = Array.from({ length: words }, (_, i) => `word${i + 1}`).join(' ');
  return `<sim>${JSON.stringify({ text, tokensPerSecond })}</sim>`;
}

/**
 * A fixed CPU-bound workload in this process (JSON round trips of a chat body for 300 ms), run
 * before each stage: its rate shows how much the machine's speed drifted during the run.
 */
function calibrate(results, label) {
  const body = { model: 'gpt-4o-mini', messages: Array.from({ length: 8 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `message ${i} `.repeat(20) })) };
  const started = process.hrtime.bigint();
  let n = 0;
  while (process.hrtime.bigint() - started < 300_000_000n) {
    JSON.parse(JSON.stringify(body));
    n += 1;
  }
  const opsPerMs = n / (Number(process.hrtime.bigint() - started) / 1e6);
  results.calibration.push({ label, atS: round((Date.now() - Date.parse(results.generatedAt)) / 1000, 1), opsPerMs: round(opsPerMs, 1) });
}

async function stage(results, name, fn) {
  const started = Date.now();
  calibrate(results, name);
  log(`— ${name}`);
  try {
    await fn();
  } catch (error) {
    log(`${name} failed: ${error.stack || error.message}`);
    results.stageErrors.push({ stage: name, error: error.message });
  }
  results.stageSeconds[name] = round((Date.now() - started) / 1000, 1);
}

function assertAlive(systems) {
  for (const system of Object.values(systems)) {
    if (system && system.handle && system.handle.exited) {
      throw new Error(`${system.handle.name} has exited (code ${system.handle.exitCode})\n${system.handle.tail()}`);
    }
  }
}

async function main() {
  installSignalHandlers();
  const runStarted = Date.now();
  const results = {
    generatedAt: new Date().toISOString(),
    plan: PLAN,
    machine: machine(),
    versions: {
      rosetta: packageVersion('rosetta') || JSON.parse(readFileSync(join(stack.ROOT, 'package.json'), 'utf8')).version,
      rosettaCommit: gitCommit(),
      portkeyGateway: packageVersion('@portkey-ai/gateway'),
      autocannon: packageVersion('autocannon'),
      node: process.version,
    },
    setup: {},
    idle: {},
    throughput: [],
    addedLatency: [],
    streaming: null,
    resources: {},
    concurrentStreams: [],
    dialects: [],
    stageErrors: [],
    stageSeconds: {},
    calibration: [],
  };
  if (!existsSync(join(stack.ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (or `npm run bench`, which builds first)');
  }
  let exitCode = 0;
  try {
    log(`mode ${PLAN.mode}; starting PostgreSQL database, Redis database, simulator, Rosetta, Portkey`);
    state.db = await stack.createDatabase();
    state.redis = await stack.claimRedisDb();
    results.versions.postgres = await stack.databaseVersion().catch(() => null);
    results.versions.redis = state.redis.version;
    const sim = await stack.startSimulator({ latencyMs: PLAN.simLatencyMs });
    const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: state.db.url, redisUrl: state.redis.url });
    const portkey = await stack.startPortkey();
    const floor = await stack.startFloor({ simUrl: sim.url });
    const systems = { sim, rosetta, portkey, floor };
    results.setup = {
      simulator: { latencyMs: PLAN.simLatencyMs, recording: false },
      database: state.db.name,
      redisDb: state.redis.db,
      rosettaReadiness: rosetta.readiness,
      rosettaKeyPlan: 'enterprise',
    };
    log(`simulator ${sim.url}  rosetta ${rosetta.url}  portkey ${portkey.url}  floor ${floor.url}`);

    const targets = stack.openAiTargets(systems);
    for (const target of targets) await stack.preflight(target);
    results.idle = { rosettaRssMB: mb(readRss(rosetta.pid)), portkeyRssMB: mb(readRss(portkey.pid)), floorRssMB: mb(readRss(floor.pid)), simulatorRssMB: mb(readRss(sim.pid)) };
    {
      // CPU with no load at all: timers, pools, background flushes.
      const samplers = { rosetta: startSampler(rosetta.pid), portkey: startSampler(portkey.pid), floor: startSampler(floor.pid), simulator: startSampler(sim.pid) };
      await sleep(3000);
      results.idle.cpuCores = Object.fromEntries(Object.entries(samplers).map(([name, s]) => [name, round(s.stop().cpuCores, 4)]));
    }

    await stage(results, 'warm-up', async () => {
      for (const target of targets) await runLoad(target, { connections: 64, durationS: PLAN.warmupS });
      results.idle.afterWarmup = { rosettaRssMB: mb(readRss(rosetta.pid)), portkeyRssMB: mb(readRss(portkey.pid)) };
    });

    await stage(results, 'throughput', async () => {
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
            log(`  c=${connections} ${target.name.padEnd(8)} ${fmt(part.rps)} req/s  p50 ${fmt(part.latencyMs.p50, 2)}  p99 ${fmt(part.latencyMs.p99, 2)} ms  errors ${part.errors}`);
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
    });

    await stage(results, 'added latency at fixed rates', async () => {
      let turn = 0;
      for (const rate of PLAN.rates) {
        const connections = Math.max(1, Math.round(rate / PLAN.perConnectionRate));
        const parts = Object.fromEntries(targets.map((t) => [t.name, []]));
        for (let round = 0; round < PLAN.rateRounds; round += 1) {
          for (const target of rotate(targets, turn++)) {
            assertAlive(systems);
            const part = await runLoad(target, { connections, durationS: PLAN.rateS, overallRate: rate });
            parts[target.name].push(part);
            log(`  ${rate} req/s ${target.name.padEnd(8)} achieved ${fmt(part.rps)}  p50 ${fmt(part.latencyMs.p50, 2)}  p99 ${fmt(part.latencyMs.p99, 2)} ms  errors ${part.errors}`);
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
    });

    await stage(results, 'resources per 1,000 req/s', async () => {
      const at1000 = results.addedLatency.find((r) => r.rate === 1000);
      const at64 = results.throughput.find((r) => r.connections === 64);
      for (const name of ['rosetta', 'portkey', 'floor', 'direct']) {
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
    });

    await stage(results, 'streaming: time to first token and gaps', async () => {
      const prompt = streamingPrompt(PLAN.stream);
      const streamTargets = stack.openAiTargets(systems, { stream: true, prompt });
      const parts = Object.fromEntries(streamTargets.map((t) => [t.name, []]));
      let turn = 0;
      for (let round = 0; round < PLAN.stream.rounds; round += 1) {
        for (const target of rotate(streamTargets, turn++)) {
          assertAlive(systems);
          const part = await streamLatency(target, { count: PLAN.stream.count, concurrency: PLAN.stream.concurrency });
          parts[target.name].push(part);
          log(`  ${target.name.padEnd(8)} ttft p50 ${fmt(part.ttftMs.p50, 2)} p99 ${fmt(part.ttftMs.p99, 2)}  gap p50 ${fmt(part.gapMs.p50, 2)} p99 ${fmt(part.gapMs.p99, 2)} ms  errors ${part.errors}`);
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
    });

    await stage(results, 'dialects x upstream protocols', async () => {
      const combos = [
        stack.directProtocolTarget(sim, 'openai'),
        stack.directProtocolTarget(sim, 'anthropic'),
        stack.directProtocolTarget(sim, 'gemini'),
        stack.dialectTarget(rosetta, 'A', 'openai'),
        stack.dialectTarget(rosetta, 'A', 'anthropic'),
        stack.dialectTarget(rosetta, 'B', 'anthropic'),
        stack.dialectTarget(rosetta, 'B', 'openai'),
        stack.dialectTarget(rosetta, 'C', 'gemini'),
        stack.dialectTarget(rosetta, 'C', 'openai'),
      ];
      for (const target of combos) await stack.preflight(target);
      for (const target of combos) {
        assertAlive(systems);
        await runLoad(target, { connections: PLAN.dialectConnections, durationS: PLAN.pointWarmupS });
        const point = await runLoad(target, { connections: PLAN.dialectConnections, durationS: PLAN.dialectS });
        point.dialect = target.dialect || null;
        point.protocol = target.protocol;
        results.dialects.push(point);
        log(`  ${target.name.padEnd(16)} ${fmt(point.rps)} req/s  p50 ${fmt(point.latencyMs.p50, 2)}  p99 ${fmt(point.latencyMs.p99, 2)} ms  errors ${point.errors}`);
        await sleep(PLAN.pauseMs);
      }
    });

    await stage(results, `${PLAN.hold.count} concurrent open streams`, async () => {
      const prompt = streamingPrompt({ words: PLAN.hold.words, tokensPerSecond: PLAN.hold.tokensPerSecond });
      const streamTargets = byName(stack.openAiTargets(systems, { stream: true, prompt }).map((t) => ({ ...t, target: t.name })));
      const streamSeconds = PLAN.hold.words / PLAN.hold.tokensPerSecond;
      for (const name of PLAN.hold.targets) {
        assertAlive(systems);
        const target = streamTargets[name];
        const before = mb(readRss(target.pid));
        const point = await holdStreams(target, { count: PLAN.hold.count, rampMs: PLAN.hold.rampMs, timeoutMs: (streamSeconds + 60) * 1000 });
        point.rssBeforeMB = before;
        point.streamSeconds = streamSeconds;
        results.concurrentStreams.push(point);
        log(`  ${name.padEnd(8)} max open ${point.maxOpen}/${point.streams}  completed ${point.completed}  errors ${point.errors}  RSS before ${fmt(before)} peak ${fmt(point.rssPeakMB)} MB`);
        await sleep(1000);
      }
    });
    results.processes = {
      rosettaExited: rosetta.handle.exited,
      portkeyExited: portkey.handle.exited,
      simulatorExited: sim.handle.exited,
      floorExited: floor.handle.exited,
      rosettaLogTail: rosetta.handle.tail(10),
      portkeyLogTail: portkey.handle.lines.filter((l) => !/Starting AI Gateway|Ready for connections|running at|localhost:/.test(l)).slice(-10).join('\n'),
    };
  } catch (error) {
    exitCode = 1;
    log(`run failed: ${error.stack || error.message}`);
    results.stageErrors.push({ stage: 'setup', error: error.message });
  } finally {
    await cleanup();
  }
  calibrate(results, 'end');
  results.totalSeconds = round((Date.now() - runStarted) / 1000, 1);
  results.targets = report.evaluateTargets(results);
  if (results.stageErrors.length) exitCode = 1;

  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const markdown = report.markdown(results);
  writeFileSync(join(OUT_DIR, 'results.md'), markdown);
  writeFileSync(join(OUT_DIR, 'chart.svg'), report.chart(results));
  process.stdout.write(`\n${report.tables(results)}\n`);
  log(`wrote ${join(OUT_DIR, 'results.json')}, results.md and chart.svg in ${results.totalSeconds} s`);
  process.exitCode = exitCode;
}

main().catch(async (error) => {
  log(`fatal: ${error.stack || error.message}`);
  await cleanup();
  process.exitCode = 1;
});
