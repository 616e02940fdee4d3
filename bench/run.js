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
// BENCH_BASELINE=<git ref>: also `rosetta-baseline`, that commit built in a temporary git worktree
//   and started exactly like Rosetta (fresh database, Redis database of its own), measured
//   interleaved with the others at every point; the report puts it beside Rosetta (before/after).
// BENCH_KEY=enterprise|limited|budget: the key both Rosettas are called with (default enterprise:
//   unlimited; limited: finite never-reached RPM/TPM; budget: limited plus a key and a team dollar
//   budget, never reached; a baseline without budgets gets `limited`). See lib/stack.js setupKey.
// BENCH_BASELINE_KEY: the baseline's key instead (e.g. BENCH_BASELINE=HEAD BENCH_KEY=budget
//   BENCH_BASELINE_KEY=limited: what budgets cost on the same code, in one run).
// BENCH_REF=<git ref>: run `rosetta` from that commit (a temporary worktree, like the baseline)
//   instead of this checkout, so uncommitted edits in progress do not enter the measurement.
// BENCH_OTEL=1: Rosetta (not the baseline) traces every request, exporting OTLP (http/protobuf, or
//   BENCH_OTEL_PROTOCOL=http/json) to a stand-in collector (bench/otlp-sink.js); compare with a
//   run without it (docs/benchmarks/tracing.md).
const os = require('node:os');
const { mkdirSync, writeFileSync, readFileSync, existsSync } = require('node:fs');
const { join, relative } = require('node:path');
const { execFileSync } = require('node:child_process');
const stack = require('./lib/stack');
const { runLoad, mergeLoadPoints, stopAllLoads, mb } = require('./lib/load');
const { streamLatency, mergeStreamPoints, holdStreams, abortAllStreams } = require('./lib/streams');
const { stopAll, killAllSync, sleep, readRss, startSampler, readMachineCpu, readRunCpuSeconds } = require('./lib/proc');
const { diff, round } = require('./lib/stats');
const report = require('./lib/report');

const QUICK = process.env.BENCH_QUICK === '1';
const OUT_DIR = process.env.BENCH_OUT_DIR || join(stack.ROOT, 'docs', 'benchmarks');
const BASELINE_REF = (process.env.BENCH_BASELINE || '').trim() || null;
const CURRENT_REF = (process.env.BENCH_REF || '').trim() || null;
const KEY_KIND = (process.env.BENCH_KEY || '').trim() || 'enterprise';
const BASELINE_KEY_KIND = (process.env.BENCH_BASELINE_KEY || '').trim() || KEY_KIND;
for (const [name, kind] of [['BENCH_KEY', KEY_KIND], ['BENCH_BASELINE_KEY', BASELINE_KEY_KIND]]) {
  if (!stack.KEY_KINDS.includes(kind)) {
    process.stderr.write(`${name} must be one of ${stack.KEY_KINDS.join(', ')}, got '${kind}'\n`);
    process.exit(2);
  }
}
const OTEL = process.env.BENCH_OTEL === '1';
if (!stack.KEY_KINDS.includes(KEY_KIND)) {
  process.stderr.write(`BENCH_KEY must be one of ${stack.KEY_KINDS.join(', ')}, got '${KEY_KIND}'\n`);
  process.exit(2);
}

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
      hold: { count: 2000, rampMs: 3000, words: 16, tokensPerSecond: 2, targets: ['rosetta', 'rosetta-baseline'] },
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
      hold: { count: 2000, rampMs: 4000, words: 24, tokensPerSecond: 2, targets: ['direct', 'floor', 'rosetta', 'rosetta-baseline', 'portkey'] },
      pauseMs: 500,
    };

const state = { db: null, redis: null, baselineDb: null, baselineRedis: null, baseline: null, current: null, cleaning: null };

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
      if (state.baselineDb) {
        await stack.dropDatabase(state.baselineDb.name).then(
          () => log(`dropped database ${state.baselineDb.name}`),
          (error) => log(`could not drop database ${state.baselineDb.name}: ${error.message}`),
        );
      }
      for (const redis of [state.redis, state.baselineRedis].filter(Boolean)) {
        await stack.releaseRedisDb(redis).then(
          () => log(`emptied Redis database ${redis.db}`),
          (error) => log(`could not empty Redis database ${redis.db}: ${error.message}`),
        );
      }
      for (const tree of [state.baseline, state.current].filter(Boolean)) {
        try {
          stack.removeBaseline(tree);
          log(`removed the worktree ${tree.dir}`);
        } catch (error) {
          log(`could not remove the worktree ${tree.dir}: ${error.message}`);
        }
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
  process.on('exit', () => {
    killAllSync();
    // A forced exit (second Ctrl-C) skips the async cleanup: the worktree still goes.
    for (const tree of [state.baseline, state.current].filter(Boolean)) {
      try {
        stack.removeBaseline(tree);
      } catch {
        /* best effort */
      }
    }
  });
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

/** Files of the work tree that differ from HEAD (what `rosetta` runs is HEAD plus these). */
function gitChanges() {
  try {
    const out = execFileSync('git', ['status', '--porcelain', '--untracked-files=normal', '--', 'apps', 'libs', 'package.json'], {
      cwd: stack.ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\n').filter(Boolean).map((line) => line.slice(3));
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
  results.calibration.push({
    label,
    atS: round((Date.now() - Date.parse(results.generatedAt)) / 1000, 1),
    opsPerMs: round(opsPerMs, 1),
    loadAverage: os.loadavg().map((v) => round(v, 2)),
  });
}

async function stage(results, name, fn) {
  const started = Date.now();
  calibrate(results, name);
  log(`— ${name}`);
  // The machine's busy CPU against the run's own processes' over the stage: the rest is other
  // users' work (plus PostgreSQL and Redis, which serve the run but are not its children).
  const machineBefore = readMachineCpu();
  const runBefore = readRunCpuSeconds();
  try {
    await fn();
  } catch (error) {
    log(`${name} failed: ${error.stack || error.message}`);
    results.stageErrors.push({ stage: name, error: error.message });
  }
  const wall = (Date.now() - started) / 1000;
  results.stageSeconds[name] = round(wall, 1);
  const machineAfter = readMachineCpu();
  if (machineBefore && machineAfter && wall >= 1) {
    const machineCores = (machineAfter.busy - machineBefore.busy) / wall;
    const runCores = (readRunCpuSeconds() - runBefore) / wall;
    const entry = { stage: name, machineCores: round(machineCores, 2), runCores: round(runCores, 2), otherCores: round(Math.max(0, machineCores - runCores), 2) };
    results.cpuOutsideRun.push(entry);
    log(`  CPU over the stage: machine ${fmt(entry.machineCores, 2)} cores, this run ${fmt(entry.runCores, 2)}, outside it ${fmt(entry.otherCores, 2)} (incl. PostgreSQL and Redis)`);
  }
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
      rosettaWorkTreeChanges: gitChanges(),
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
    cpuOutsideRun: [],
    // The machine's load average (1, 5, 15 min) before anything was started: other users' load.
    loadAverageAtStart: os.loadavg().map((v) => round(v, 2)),
  };
  if (!existsSync(join(stack.ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js'))) {
    if (!CURRENT_REF) throw new Error('dist/ is missing: run `npm run build` (or `npm run bench`, which builds first)');
  }
  let exitCode = 0;
  try {
    log(`mode ${PLAN.mode}; key ${KEY_KIND}; load average ${results.loadAverageAtStart.join(' ')}`);
    if (BASELINE_REF) {
      const prepared = await stack.prepareBaseline(BASELINE_REF, { onStart: (b) => (state.baseline = b), log });
      log(`baseline ${prepared.short} built in ${prepared.buildSeconds} s`);
    }
    if (CURRENT_REF) {
      // `rosetta` pinned to a commit: uncommitted edits in this checkout do not enter the run.
      const prepared = await stack.prepareBaseline(CURRENT_REF, { onStart: (b) => (state.current = b), log });
      log(`rosetta pinned to ${prepared.short}, built in ${prepared.buildSeconds} s`);
      results.versions.rosettaCommit = prepared.short;
      results.versions.rosettaRef = CURRENT_REF;
      results.versions.rosettaWorkTreeChanges = [];
    }
    log(`starting PostgreSQL database, Redis database, simulator, Rosetta${BASELINE_REF ? ', Rosetta baseline' : ''}, Portkey, floor`);
    state.db = await stack.createDatabase();
    state.redis = await stack.claimRedisDb();
    results.versions.postgres = await stack.databaseVersion().catch(() => null);
    results.versions.redis = state.redis.version;
    const sim = await stack.startSimulator({ latencyMs: PLAN.simLatencyMs });
    const otlpSink = OTEL ? await stack.startOtlpSink() : null;
    const tracingEnv = otlpSink ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink.url, OTEL_EXPORTER_OTLP_PROTOCOL: process.env.BENCH_OTEL_PROTOCOL || 'http/protobuf' } : {};
    const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: state.db.url, redisUrl: state.redis.url, keyKind: KEY_KIND, env: tracingEnv, ...(state.current ? { root: state.current.dir } : {}) });
    let baseline = null;
    if (state.baseline) {
      // Exactly like Rosetta: same environment, a fresh database and a Redis database of its own.
      state.baselineDb = await stack.createDatabase('baseline');
      state.baselineRedis = await stack.claimRedisDb({ exclude: [state.redis.db] });
      baseline = await stack.startRosetta({
        simUrl: sim.url,
        databaseUrl: state.baselineDb.url,
        redisUrl: state.baselineRedis.url,
        keyKind: BASELINE_KEY_KIND,
        root: state.baseline.dir,
        name: 'rosetta-baseline',
      });
    }
    const portkey = await stack.startPortkey();
    const floor = await stack.startFloor({ simUrl: sim.url });
    const systems = { sim, rosetta, baseline, portkey, floor };
    const keyOf = (gateway) => ({ kind: gateway.keyInfo.kind, requested: gateway.keyInfo.requested, fallback: gateway.keyInfo.fallback, fields: gateway.keyInfo.fields });
    results.setup = {
      simulator: { latencyMs: PLAN.simLatencyMs, recording: false },
      database: state.db.name,
      redisDb: state.redis.db,
      rosettaReadiness: rosetta.readiness,
      rosettaKeyPlan: 'enterprise',
      keyKind: KEY_KIND,
      rosettaKey: keyOf(rosetta),
      baseline: baseline
        ? {
            ref: state.baseline.ref,
            commit: state.baseline.commit,
            subject: state.baseline.subject,
            buildSeconds: state.baseline.buildSeconds,
            database: state.baselineDb.name,
            redisDb: state.baselineRedis.db,
            readiness: baseline.readiness,
            key: keyOf(baseline),
          }
        : null,
    };
    if (baseline && baseline.keyInfo.fallback) log(`the baseline has no budgets: its key is '${baseline.keyInfo.kind}' (asked '${BASELINE_KEY_KIND}')`);
    log(`simulator ${sim.url}  rosetta ${rosetta.url}${baseline ? `  rosetta-baseline ${baseline.url}` : ''}  portkey ${portkey.url}  floor ${floor.url}`);

    const targets = stack.openAiTargets(systems);
    for (const target of targets) await stack.preflight(target);
    results.idle = { rosettaRssMB: mb(readRss(rosetta.pid)), portkeyRssMB: mb(readRss(portkey.pid)), floorRssMB: mb(readRss(floor.pid)), simulatorRssMB: mb(readRss(sim.pid)) };
    if (baseline) results.idle.baselineRssMB = mb(readRss(baseline.pid));
    {
      // CPU with no load at all: timers, pools, background flushes.
      const samplers = { rosetta: startSampler(rosetta.pid), portkey: startSampler(portkey.pid), floor: startSampler(floor.pid), simulator: startSampler(sim.pid) };
      if (baseline) samplers['rosetta-baseline'] = startSampler(baseline.pid);
      await sleep(3000);
      results.idle.cpuCores = Object.fromEntries(Object.entries(samplers).map(([name, s]) => [name, round(s.stop().cpuCores, 4)]));
    }

    await stage(results, 'warm-up', async () => {
      for (const target of targets) await runLoad(target, { connections: 64, durationS: PLAN.warmupS });
      results.idle.afterWarmup = { rosettaRssMB: mb(readRss(rosetta.pid)), portkeyRssMB: mb(readRss(portkey.pid)) };
      if (baseline) results.idle.afterWarmup.baselineRssMB = mb(readRss(baseline.pid));
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
    });

    await stage(results, 'resources per 1,000 req/s', async () => {
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
    });

    await stage(results, 'dialects x upstream protocols', async () => {
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
    });

    await stage(results, `${PLAN.hold.count} concurrent open streams`, async () => {
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
    });
    // What the budgets were charged over the run (budget keys): proof that they were on the path.
    for (const gateway of [rosetta, baseline].filter((g) => g && g.keyInfo.kind === 'budget')) {
      const described = await stack.describeKey(gateway.url, gateway.key).catch((error) => ({ error: error.message }));
      results.setup[gateway === rosetta ? 'rosettaKey' : 'baseline'].spendAfterRun = described.error
        ? described
        : { key: described.budget, team: described.team && described.team.budget };
    }
    if (otlpSink) {
      // What reached the stand-in collector: proof that the spans were exported all along.
      const exported = await fetch(`${otlpSink.url}/stats`).then((r) => r.json(), (error) => ({ error: error.message }));
      results.setup.tracing = { protocol: tracingEnv.OTEL_EXPORTER_OTLP_PROTOCOL, exported };
      log(`OTLP sink received ${JSON.stringify(exported)}`);
    }
    results.processes = {
      rosettaExited: rosetta.handle.exited,
      ...(baseline ? { baselineExited: baseline.handle.exited, baselineLogTail: baseline.handle.tail(10) } : {}),
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
  const markdown = report.markdown(results, { readme: relative(OUT_DIR, join(stack.ROOT, 'docs', 'benchmarks', 'README.md')) });
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
