/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The run's plumbing: its log, the order of targets, the machine's speed and CPU around each stage,
// and what the run records about the machine and the code it measured.
const os = require('node:os');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const stack = require('./stack');
const { readMachineCpu, readRunCpuSeconds } = require('./proc');
const { round } = require('./stats');

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

/** The results object before the run: the plan, the machine, the versions, empty sections. */
function emptyResults(plan) {
  return {
    generatedAt: new Date().toISOString(),
    plan,
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
    cloudSigning: null,
    responseCache: null,
    stageErrors: [],
    stageSeconds: {},
    calibration: [],
    cpuOutsideRun: [],
    // The machine's load average (1, 5, 15 min) before anything was started: other users' load.
    loadAverageAtStart: os.loadavg().map((v) => round(v, 2)),
  };
}

module.exports = { log, rotate, byName, fmt, streamingPrompt, calibrate, stage, assertAlive, emptyResults };
