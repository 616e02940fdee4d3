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
// BENCH_KEY=enterprise|limited|budget|guarded|guarded-input|guarded-output: the key both Rosettas are called with (default enterprise:
//   unlimited; limited: finite never-reached RPM/TPM; budget: limited plus a key and a team dollar
//   budget, never reached; a baseline without budgets gets `limited`; guarded: enterprise plus the
//   built-in guardrails on both stages; guarded-input, guarded-output: on that stage only).
//   See lib/keys.js setupKey.
// BENCH_PROMPT_BYTES=2048: the compared targets' prompt that long (plain prose) instead of one line;
//   with BENCH_BASELINE=HEAD BENCH_KEY=guarded BENCH_BASELINE_KEY=enterprise: what guardrails cost.
// BENCH_BASELINE_KEY: the baseline's key instead (e.g. BENCH_BASELINE=HEAD BENCH_KEY=budget
//   BENCH_BASELINE_KEY=limited: what budgets cost on the same code, in one run).
// BENCH_REF=<git ref>: run `rosetta` from that commit (a temporary worktree, like the baseline)
//   instead of this checkout, so uncommitted edits in progress do not enter the measurement.
// BENCH_OTEL=1: Rosetta (not the baseline) traces every request, exporting OTLP (http/protobuf, or
//   BENCH_OTEL_PROTOCOL=http/json) to a stand-in collector (bench/otlp-sink.js); compare with a
//   run without it (docs/benchmarks/tracing.md).
// The plan and settings are in lib/plan.js, the stages in lib/stages.js, the plumbing (log,
// calibration, stage timing) in lib/run-support.js.
const { mkdirSync, writeFileSync, existsSync } = require('node:fs');
const { join, relative } = require('node:path');
const stack = require('./lib/stack');
const { stopAllLoads, mb } = require('./lib/load');
const { abortAllStreams } = require('./lib/streams');
const { stopAll, killAllSync, sleep, readRss, startSampler } = require('./lib/proc');
const { round } = require('./lib/stats');
const report = require('./lib/report');
const { OUT_DIR, BASELINE_REF, CURRENT_REF, KEY_KIND, BASELINE_KEY_KIND, OTEL, PLAN } = require('./lib/plan');
const { log, calibrate, stage, emptyResults } = require('./lib/run-support');
const { stagesOf } = require('./lib/stages');

const state = { db: null, redis: null, baselineDb: null, baselineRedis: null, baseline: null, current: null, cleaning: null };

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

/** The commits to run (BENCH_BASELINE, BENCH_REF) checked out and built. */
async function prepareTrees(results) {
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
}

/** The database, Redis, simulator, both Rosettas, Portkey and the floor, started; `setup` recorded. */
async function startSystems(results) {
  log(`starting PostgreSQL database, Redis database, simulator, Rosetta${BASELINE_REF ? ', Rosetta baseline' : ''}, Portkey, floor`);
  state.db = await stack.createDatabase();
  state.redis = await stack.claimRedisDb();
  results.versions.postgres = await stack.databaseVersion().catch(() => null);
  results.versions.redis = state.redis.version;
  const sim = await stack.startSimulator({ latencyMs: PLAN.simLatencyMs });
  const otlpSink = OTEL ? await stack.startOtlpSink() : null;
  const tracingEnv = otlpSink ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlpSink.url, OTEL_EXPORTER_OTLP_PROTOCOL: process.env.BENCH_OTEL_PROTOCOL || 'http/protobuf' } : {};
  const rosetta = await stack.startRosetta({ simUrl: sim.url, databaseUrl: state.db.url, redisUrl: state.redis.url, redisEnv: state.redis.env, keyKind: KEY_KIND, env: tracingEnv, ...(state.current ? { root: state.current.dir } : {}) });
  let baseline = null;
  if (state.baseline) {
    // Exactly like Rosetta: same environment, a fresh database and a Redis database of its own.
    state.baselineDb = await stack.createDatabase('baseline');
    state.baselineRedis = await stack.claimRedisDb({ exclude: [state.redis.db] });
    baseline = await stack.startRosetta({
      simUrl: sim.url,
      databaseUrl: state.baselineDb.url,
      redisUrl: state.baselineRedis.url,
      redisEnv: state.baselineRedis.env,
      keyKind: BASELINE_KEY_KIND,
      root: state.baseline.dir,
      name: 'rosetta-baseline',
    });
  }
  const portkey = await stack.startPortkey();
  const floor = await stack.startFloor({ simUrl: sim.url });
  results.setup = setupOf(rosetta, baseline);
  if (baseline && baseline.keyInfo.fallback) log(`the baseline has no budgets: its key is '${baseline.keyInfo.kind}' (asked '${BASELINE_KEY_KIND}')`);
  log(`simulator ${sim.url}  rosetta ${rosetta.url}${baseline ? `  rosetta-baseline ${baseline.url}` : ''}  portkey ${portkey.url}  floor ${floor.url}`);
  return { systems: { sim, rosetta, baseline, portkey, floor }, otlpSink, tracingEnv };
}

function setupOf(rosetta, baseline) {
  const keyOf = (gateway) => ({ kind: gateway.keyInfo.kind, requested: gateway.keyInfo.requested, fallback: gateway.keyInfo.fallback, fields: gateway.keyInfo.fields });
  return {
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
}

/** Memory and CPU of every process before any load (timers, pools, background flushes). */
async function measureIdle(results, { sim, rosetta, baseline, portkey, floor }) {
  results.idle = { rosettaRssMB: mb(readRss(rosetta.pid)), portkeyRssMB: mb(readRss(portkey.pid)), floorRssMB: mb(readRss(floor.pid)), simulatorRssMB: mb(readRss(sim.pid)) };
  if (baseline) results.idle.baselineRssMB = mb(readRss(baseline.pid));
  const samplers = { rosetta: startSampler(rosetta.pid), portkey: startSampler(portkey.pid), floor: startSampler(floor.pid), simulator: startSampler(sim.pid) };
  if (baseline) samplers['rosetta-baseline'] = startSampler(baseline.pid);
  await sleep(3000);
  results.idle.cpuCores = Object.fromEntries(Object.entries(samplers).map(([name, s]) => [name, round(s.stop().cpuCores, 4)]));
}

/** After the stages: what the budgets and the OTLP sink received, and how the processes ended. */
async function afterStages(results, { sim, rosetta, baseline, portkey, floor }, otlpSink, tracingEnv) {
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
}

function writeResults(results) {
  mkdirSync(OUT_DIR, { recursive: true });
  writeFileSync(join(OUT_DIR, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  const markdown = report.markdown(results, { readme: relative(OUT_DIR, join(stack.ROOT, 'docs', 'benchmarks', 'README.md')) });
  writeFileSync(join(OUT_DIR, 'results.md'), markdown);
  writeFileSync(join(OUT_DIR, 'chart.svg'), report.chart(results));
  process.stdout.write(`\n${report.tables(results)}\n`);
  log(`wrote ${join(OUT_DIR, 'results.json')}, results.md and chart.svg in ${results.totalSeconds} s`);
}

async function main() {
  installSignalHandlers();
  const runStarted = Date.now();
  const results = emptyResults(PLAN);
  if (!existsSync(join(stack.ROOT, 'dist', 'apps', 'gateway', 'src', 'main.js'))) {
    if (!CURRENT_REF) throw new Error('dist/ is missing: run `npm run build` (or `npm run bench`, which builds first)');
  }
  let exitCode = 0;
  try {
    log(`mode ${PLAN.mode}; key ${KEY_KIND}; load average ${results.loadAverageAtStart.join(' ')}`);
    await prepareTrees(results);
    const { systems, otlpSink, tracingEnv } = await startSystems(results);
    const targets = stack.openAiTargets(systems);
    for (const target of targets) await stack.preflight(target);
    await measureIdle(results, systems);
    const run = { results, plan: PLAN, systems, targets };
    for (const [name, fn] of stagesOf(PLAN)) await stage(results, name, () => fn(run));
    await afterStages(results, systems, otlpSink, tracingEnv);
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
  writeResults(results);
  process.exitCode = exitCode;
}

main().catch(async (error) => {
  log(`fatal: ${error.stack || error.message}`);
  await cleanup();
  process.exitCode = 1;
});
