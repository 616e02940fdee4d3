#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `node bench/redis-trace.js`: which Redis commands one request costs, and when, relative to the
// upstream call. Starts the simulator behind a small timestamping proxy, Rosetta (or, with
// TRACE_BASELINE=<git ref>, that commit built in a temporary worktree as `npm run bench` does) with
// a bench key, watches the gateway's Redis database with MONITOR, and sends requests one at a time
// (after a warm-up that loads the scripts and seeds the budget counters). For each request it
// prints the gateway's Redis commands with their time from the request's start (MONITOR's clock;
// the commands a Lua script runs are counted, not listed), the moment the upstream received the
// call and the moment the answer ended, and counts the round trips before the upstream call: a
// command that reaches Redis within TRACE_BURST_US (default 60 µs) of the end of the previous
// one (its last scripted command) was written together with it (one round trip); a longer gap
// means the gateway waited for an answer, or computed, first. A heuristic on one machine (MONITOR
// itself slows each command), so the timeline is printed beside it.
//
// Where `strace` is installed (TRACE_STRACE=0 to skip) the gateway's socket system calls are
// traced as well, which settles the question without a heuristic: between reading the client's
// request and writing the upstream call, each `read` of Redis replies is one round trip the
// request waited for; commands written back to back before one read were pipelined. (The MONITOR
// heuristic over-counts: it sees when Redis ran each command, and MONITOR slows both sides.)
//
// Options (env): TRACE_KEY (enterprise | limited | budget; default budget), TRACE_BASELINE,
// TRACE_TARGET (A->openai; B->anthropic, C->gemini, ...), TRACE_REQUESTS (5), TRACE_BURST_US (60),
// TRACE_OUT (a file for the JSON, optional), BENCH_REDIS=cluster (a three-master cluster of its own), TRACE_MONITOR=0 (strace only: on a Redis other
// processes are busy with, ioredis' MONITOR connection can fail with "Command queue state error").
// MONITOR slows Redis for everyone while it runs: do not run this beside a benchmark.
const http = require('node:http');
const { writeFileSync, readFileSync, mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const { execFileSync } = require('node:child_process');
const Redis = require('ioredis');
const stack = require('./lib/stack');
const { stopAll, stopChild, startChild, killAllSync, sleep, httpRequest } = require('./lib/proc');

const KEY_KIND = process.env.TRACE_KEY || 'budget';
const BASELINE = (process.env.TRACE_BASELINE || '').trim() || null;
const TARGET = process.env.TRACE_TARGET || 'A->openai';
const REQUESTS = Number(process.env.TRACE_REQUESTS || 5);
const BURST_US = Number(process.env.TRACE_BURST_US || 60);
const STRACE = process.env.TRACE_STRACE !== '0' && hasStrace();
// On a cluster (BENCH_REDIS=cluster) the strace count alone: MONITOR watches one server.
const MONITOR = process.env.TRACE_MONITOR !== '0' && process.env.BENCH_REDIS !== 'cluster';

function hasStrace() {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const SYSCALL = /^\d+\s+(\d\d):(\d\d):(\d\d\.\d+)\s+(read|write|writev)\((\d+), (?:\[\{iov_base=)?"((?:[^"\\]|\\.)*)"/;

/**
 * Per client request, from an strace of the gateway: Redis commands written and Redis reply reads
 * (round trips waited for) before the upstream call, and after it.
 */
function straceRoundTrips(text) {
  const events = [];
  for (const line of text.split('\n')) {
    const m = SYSCALL.exec(line);
    if (!m) continue;
    events.push({ atMs: (Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3])) * 1000, call: m[4], fd: Number(m[5]), data: m[6] });
  }
  const redisFds = new Set(events.filter((e) => e.call !== 'read' && /^\*\d+\\r\\n\$/.test(e.data)).map((e) => e.fd));
  const requests = [];
  let current = null;
  for (const e of events) {
    if (e.call === 'read' && /^POST \/v1/.test(e.data)) {
      current = { clientFd: e.fd, startMs: e.atMs, upstreamMs: null, before: { redisWrites: 0, redisReads: 0 }, after: { redisWrites: 0, redisReads: 0 } };
      requests.push(current);
      continue;
    }
    if (!current) continue;
    if (e.call !== 'read' && e.fd !== current.clientFd && !redisFds.has(e.fd) && /^POST \//.test(e.data) && current.upstreamMs === null) {
      current.upstreamMs = e.atMs;
      continue;
    }
    if (!redisFds.has(e.fd)) continue;
    const side = current.upstreamMs === null ? current.before : current.after;
    if (e.call === 'read') side.redisReads += 1;
    else side.redisWrites += 1;
  }
  return requests.map((r) => ({ upstreamAtMs: r.upstreamMs === null ? null : Math.round((r.upstreamMs - r.startMs) * 100) / 100, before: r.before, after: r.after }));
}

const state = { db: null, redis: null, baseline: null, proxy: null, monitorBase: null, monitor: null, cleaning: null };

function log(message) {
  process.stderr.write(`[trace ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/** Wall-clock time in microseconds (comparable with MONITOR's timestamps on the same machine). */
function nowUs() {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

async function cleanup() {
  if (!state.cleaning) {
    state.cleaning = (async () => {
      if (state.monitor) state.monitor.disconnect();
      if (state.monitorBase) state.monitorBase.disconnect();
      if (state.proxy) {
        state.proxy.server.close();
        state.proxy.server.closeAllConnections();
        state.proxy.agent.destroy();
      }
      await stopAll(8000).catch(() => {});
      if (state.db) await stack.dropDatabase(state.db.name).catch((e) => log(`drop database: ${e.message}`));
      if (state.redis) await stack.releaseRedisDb(state.redis).catch((e) => log(`empty Redis db: ${e.message}`));
      if (state.baseline) stack.removeBaseline(state.baseline);
    })();
  }
  return state.cleaning;
}

/** A pass-through to the simulator that notes when each POST arrives. */
async function startProxy(simUrl, onCall) {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') onCall(nowUs());
    const out = http.request(`${simUrl}${req.url}`, { method: req.method, headers: req.headers, agent }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, agent, url: `http://127.0.0.1:${server.address().port}` };
}

/** Command name and the arguments worth showing (script keys; not the SHA, not numbers). */
function describe(args) {
  const [name, ...rest] = args;
  const lower = String(name).toLowerCase();
  if (lower === 'evalsha' || lower === 'eval') {
    const keys = Number(rest[1]);
    return `${lower} ${String(rest[0]).slice(0, 8)} keys=[${rest.slice(2, 2 + keys).join(', ')}]`;
  }
  return [lower, ...rest.slice(0, 2)].join(' ');
}

/**
 * The gateway's own commands (not those its scripts run), each with `scripted` (how many commands
 * its script ran), `endUs` (its last one) and `gapUs` (from the end of the previous command).
 */
function ownCommands(all) {
  const own = [];
  for (const c of all) {
    if (c.source === 'lua') {
      const last = own[own.length - 1];
      if (last) {
        last.scripted += 1;
        last.endUs = c.atUs;
      }
    } else {
      const last = own[own.length - 1];
      own.push({ ...c, scripted: 0, endUs: c.atUs, gapUs: last ? c.atUs - last.endUs : null });
    }
  }
  return own;
}

function bursts(commands) {
  return commands.filter((c, i) => i === 0 || c.gapUs > BURST_US).length;
}

async function main() {
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) {
      killAllSync();
      process.exit(130);
    }
    interrupted = true;
    cleanup().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', () => {
    killAllSync();
    if (state.baseline) stack.removeBaseline(state.baseline);
  });
  const [dialect, protocol] = TARGET.split('->');
  try {
    if (BASELINE) await stack.prepareBaseline(BASELINE, { onStart: (b) => (state.baseline = b), log });
    state.db = await stack.createDatabase('trace');
    state.redis = await stack.claimRedisDb();
    const sim = await stack.startSimulator({ latencyMs: 20 });
    const upstream = [];
    state.proxy = await startProxy(sim.url, (at) => upstream.push(at));
    const proxyUrl = state.proxy.url;
    const gateway = await stack.startRosetta({
      simUrl: proxyUrl,
      databaseUrl: state.db.url,
      redisUrl: state.redis.url,
      redisEnv: state.redis.env,
      keyKind: KEY_KIND,
      ...(state.baseline ? { root: state.baseline.dir, name: 'rosetta-baseline' } : {}),
    });
    const target = stack.dialectTarget(gateway, dialect, protocol);
    log(`${gateway.name}${state.baseline ? ` ${state.baseline.short}` : ''}, key ${gateway.keyInfo.kind}${gateway.keyInfo.fallback ? ` (asked ${KEY_KIND}; no budgets at this commit)` : ''}, ${TARGET}`);
    for (let i = 0; i < 3; i += 1) await stack.preflight(target);
    await sleep(500);

    const seen = [];
    if (MONITOR) {
      state.monitorBase = new Redis(state.redis.url);
      state.monitor = await state.monitorBase.monitor();
      state.monitor.on('monitor', (time, args, source, database) => {
        if (Number(database) !== state.redis.db) return;
        seen.push({ atUs: Math.round(Number(time) * 1e6), source, command: describe(args) });
      });
    }
    let strace = null;
    let straceDir = null;
    if (STRACE) {
      straceDir = mkdtempSync(join(os.tmpdir(), 'rosetta-trace-'));
      strace = startChild('strace', 'strace', ['-f', '-tt', '-e', 'trace=read,write,writev', '-s', '48', '-o', join(straceDir, 'out'), '-p', String(gateway.pid)], {});
      await sleep(1000);
    }
    await sleep(300);
    const requests = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      upstream.length = 0;
      const startUs = nowUs();
      const response = await httpRequest(target.url, { method: 'POST', headers: target.headers, body: target.body, timeoutMs: 15_000 });
      const endUs = nowUs();
      if (response.status !== 200) throw new Error(`request ${i}: HTTP ${response.status} ${response.body.slice(0, 200)}`);
      await sleep(400); // settlements after the answer
      requests.push({ startUs, endUs, upstreamUs: upstream[0] ?? null, untilUs: nowUs() });
    }
    let syscalls = null;
    if (strace) {
      await stopChild(strace, 3000);
      syscalls = straceRoundTrips(readFileSync(join(straceDir, 'out'), 'utf8'));
      rmSync(straceDir, { recursive: true, force: true });
    }
    const report = requests.map((r, i) => {
      const commands = ownCommands(seen.filter((c) => c.atUs >= r.startUs && c.atUs < r.untilUs).sort((a, b) => a.atUs - b.atUs));
      const before = r.upstreamUs === null ? commands : commands.filter((c) => c.atUs < r.upstreamUs);
      const ms = (us) => Math.round((us - r.startUs) / 10) / 100;
      return {
        request: i + 1,
        upstreamAtMs: r.upstreamUs === null ? null : ms(r.upstreamUs),
        answerEndedAtMs: ms(r.endUs),
        commands: commands.map((c) => ({ atMs: ms(c.atUs), gapUs: c.gapUs, connection: c.source, command: c.command, scripted: c.scripted })),
        beforeUpstream: { commands: before.length, roundTrips: bursts(before) },
        afterUpstream: { commands: commands.length - before.length },
        strace: syscalls && syscalls[i] ? syscalls[i] : null,
      };
    });
    for (const r of report) {
      process.stdout.write(`\nrequest ${r.request}: upstream called at ${r.upstreamAtMs} ms, answer ended at ${r.answerEndedAtMs} ms` +
        (MONITOR ? `; before the upstream call ${r.beforeUpstream.commands} Redis command(s) in ${r.beforeUpstream.roundTrips} round trip(s) by MONITOR's clock, after it ${r.afterUpstream.commands}\n` : '\n'));
      if (r.strace) {
        process.stdout.write(`  strace: before the upstream call ${r.strace.before.redisWrites} Redis write(s) and ${r.strace.before.redisReads} reply read(s) = ${r.strace.before.redisReads} round trip(s) waited for; ` +
          `after it ${r.strace.after.redisWrites} write(s), ${r.strace.after.redisReads} read(s)\n`);
      }
      for (const c of r.commands) {
        const gap = c.gapUs === null ? '' : `+${c.gapUs} µs`;
        process.stdout.write(`  ${String(c.atMs).padStart(8)} ms ${gap.padStart(10)}  ${c.connection.padEnd(22)} ${c.command}${c.scripted ? ` (${c.scripted} scripted)` : ''}\n`);
      }
    }
    const out = { generatedAt: new Date().toISOString(), gateway: gateway.name, commit: state.baseline ? state.baseline.commit : null, key: gateway.keyInfo.kind, requestedKey: KEY_KIND, target: TARGET, burstUs: BURST_US, requests: report };
    if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, `${JSON.stringify(out, null, 2)}\n`);
  } catch (error) {
    log(`failed: ${error.stack || error.message}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main();
