#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `node bench/profile.js`: where Rosetta's time goes under load. Starts the same stack as
// `npm run bench` (simulator, Rosetta from dist/ with a fresh database and Redis, auth and limits
// on) with Rosetta under `node --cpu-prof`, drives it with autocannon (default: dialect A →
// OpenAI upstream, 64 connections, 15 s after a 3 s warm-up), stops it gracefully so V8 writes the
// profile, and summarises the samples taken during the measured window (self time per function and
// module, inclusive time per module). Also counts, per request, Redis commands (INFO commandstats)
// and PostgreSQL transactions and rows (pg_stat_database of the run's own database).
//
// Options (env): PROFILE_CONNECTIONS (64), PROFILE_SECONDS (15), PROFILE_TARGET (A->openai, or
// B->anthropic, C->gemini, A->anthropic, D->openai-responses (the Responses API), ...),
// PROFILE_OUT (docs/benchmarks), PROFILE_KEEP=1 keeps
// the raw .cpuprofile next to the summary (large; not meant to be committed), PROFILE_KEY_RPM and
// PROFILE_KEY_TPM give the key finite (high) limits so the limiter's Redis path is exercised,
// PROFILE_KEY=limited|budget uses the bench's key kinds (lib/keys.js setupKey: finite RPM/TPM,
// plus key and team dollar budgets for `budget`), PROFILE_NODE_ARGS adds node flags for the
// gateway (e.g. '--max-semi-space-size=64'), PROFILE_TAG is appended to the output file names,
// PROFILE_STREAM=1 streams every request (every dialect; the file names get `-stream`),
// PROFILE_BASELINE=<git ref> profiles that commit instead of this checkout (built in a temporary git
// worktree, as `BENCH_BASELINE` does for `npm run bench`; the file names get `-at-<commit>`).
const { mkdtempSync, readdirSync, readFileSync, writeFileSync, copyFileSync, rmSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');
const os = require('node:os');
const { Client } = require('pg');
const Redis = require('ioredis');
const stack = require('./lib/stack');
const { runLoad, stopAllLoads } = require('./lib/load');
const { stopAll, stopChild, killAllSync, sleep } = require('./lib/proc');
const { summarise } = require('./lib/cpuprofile');
const { round } = require('./lib/stats');

const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS || 64);
const SECONDS = Number(process.env.PROFILE_SECONDS || 15);
const TARGET = process.env.PROFILE_TARGET || 'A->openai';
const OUT = process.env.PROFILE_OUT || join(stack.ROOT, 'docs', 'benchmarks');
const KEY_FIELDS = {
  ...(process.env.PROFILE_KEY_RPM ? { rpm: Number(process.env.PROFILE_KEY_RPM) } : {}),
  ...(process.env.PROFILE_KEY_TPM ? { tpm: Number(process.env.PROFILE_KEY_TPM) } : {}),
};
const KEY_KIND = process.env.PROFILE_KEY || 'enterprise';
const STREAM = process.env.PROFILE_STREAM === '1';

/** The target asking for a stream (dialect C in its method, the others in the body). */
function streamed(target) {
  if (!STREAM) return target;
  if (target.dialect === 'C') return { ...target, url: target.url.replace(':generateContent', ':streamGenerateContent?alt=sse') };
  return { ...target, body: JSON.stringify({ ...JSON.parse(target.body), stream: true }) };
}
const LIMITED = Object.keys(KEY_FIELDS).length > 0 || KEY_KIND !== 'enterprise';
// Extra flags for the gateway's node, e.g. PROFILE_NODE_ARGS='--max-semi-space-size=64'.
const NODE_ARGS = (process.env.PROFILE_NODE_ARGS || '').split(/\s+/).filter(Boolean);
const BASELINE = (process.env.PROFILE_BASELINE || '').trim() || null;

const state = { db: null, redis: null, profDir: null, baseline: null, cleaning: null };

function log(message) {
  process.stderr.write(`[profile ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

async function cleanup() {
  if (!state.cleaning) {
    state.cleaning = (async () => {
      stopAllLoads();
      await stopAll(8000).catch(() => {});
      if (state.db) await stack.dropDatabase(state.db.name).catch((e) => log(`drop database: ${e.message}`));
      if (state.redis) await stack.releaseRedisDb(state.redis).catch((e) => log(`empty Redis db: ${e.message}`));
      if (state.profDir) rmSync(state.profDir, { recursive: true, force: true });
      if (state.baseline) stack.removeBaseline(state.baseline);
    })();
  }
  return state.cleaning;
}

async function redisCommandStats(url) {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await client.connect();
  try {
    const info = await client.info('commandstats');
    const stats = {};
    for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) stats[match[1]] = { calls: Number(match[2]), usec: Number(match[3]) };
    return stats;
  } finally {
    client.disconnect();
  }
}

async function pgStats(databaseUrl, name) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted, blks_hit FROM pg_stat_database WHERE datname = $1',
      [name],
    );
    return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]));
  } finally {
    await client.end();
  }
}

function perRequest(before, after, requests) {
  const out = {};
  for (const [key, value] of Object.entries(after)) {
    const prev = before[key];
    if (typeof value === 'number') {
      const delta = value - (prev || 0);
      if (delta) out[key] = { total: delta, perRequest: round(delta / requests, 3) };
    } else {
      const calls = value.calls - (prev ? prev.calls : 0);
      if (calls) out[key] = { calls, perRequest: round(calls / requests, 3), usecPerCall: round((value.usec - (prev ? prev.usec : 0)) / calls, 2) };
    }
  }
  return out;
}

function mdTable(header, rows) {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
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
    state.db = await stack.createDatabase();
    state.redis = await stack.claimRedisDb();
    state.profDir = mkdtempSync(join(os.tmpdir(), 'rosetta-cpuprof-'));
    const sim = await stack.startSimulator({ latencyMs: 20 });
    const rosetta = await stack.startRosetta({
      simUrl: sim.url,
      databaseUrl: state.db.url,
      redisUrl: state.redis.url,
      nodeArgs: [...NODE_ARGS, '--cpu-prof', `--cpu-prof-dir=${state.profDir}`],
      keyKind: KEY_KIND,
      keyFields: KEY_FIELDS,
      ...(state.baseline ? { root: state.baseline.dir, name: 'rosetta-baseline' } : {}),
    });
    const target = streamed(stack.dialectTarget(rosetta, dialect, protocol));
    await stack.preflight(target);
    log(`warm-up: ${TARGET}, ${CONNECTIONS} connections, 3 s`);
    await runLoad(target, { connections: CONNECTIONS, durationS: 3 });
    await sleep(1500);
    const redisBefore = await redisCommandStats(state.redis.url);
    const pgBefore = await pgStats(state.db.url, state.db.name);
    const fromUs = Number(process.hrtime.bigint() / 1000n);
    log(`measuring: ${SECONDS} s`);
    const point = await runLoad(target, { connections: CONNECTIONS, durationS: SECONDS });
    const toUs = Number(process.hrtime.bigint() / 1000n);
    await sleep(2500); // let the usage ledger flush and PostgreSQL publish its counters
    const redisAfter = await redisCommandStats(state.redis.url);
    const pgAfter = await pgStats(state.db.url, state.db.name);
    log(`${point.rps} req/s, p50 ${point.latencyMs.p50} ms, p99 ${point.latencyMs.p99} ms, ${point.errors} errors; stopping Rosetta to write the profile`);
    await stopChild(rosetta.handle, 20_000);
    const file = readdirSync(state.profDir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile written in ${state.profDir}`);
    const profile = JSON.parse(readFileSync(join(state.profDir, file), 'utf8'));
    const summary = summarise(profile, { fromUs, toUs, top: 30 });
    const requests = point.ok + point.non2xx;
    const result = {
      generatedAt: new Date().toISOString(),
      target: TARGET,
      stream: STREAM,
      commit: state.baseline ? state.baseline.commit : null,
      key: { kind: rosetta.keyInfo.kind, ...rosetta.keyInfo.fields },
      nodeArgs: NODE_ARGS,
      connections: CONNECTIONS,
      seconds: SECONDS,
      load: { rps: point.rps, errors: point.errors, latencyMs: point.latencyMs, cpuCores: point.resources && point.resources.cpuCores, requests },
      cpuMsPerRequest: point.resources ? round((point.resources.cpuSeconds * 1000) / requests, 3) : null,
      redisPerRequest: perRequest(redisBefore, redisAfter, requests),
      postgresPerRequest: perRequest(pgBefore, pgAfter, requests),
      profile: summary,
      note: 'Redis command counts are server-wide (INFO commandstats): another process using the same Redis during the run would be counted too.',
    };
    mkdirSync(OUT, { recursive: true });
    const slug = `${dialect}-${protocol}-c${CONNECTIONS}${KEY_KIND !== 'enterprise' ? `-${KEY_KIND}` : LIMITED ? '-limited' : ''}${STREAM ? '-stream' : ''}${state.baseline ? `-at-${state.baseline.short}` : ''}${process.env.PROFILE_TAG ? `-${process.env.PROFILE_TAG}` : ''}`;
    writeFileSync(join(OUT, `profile-${slug}.json`), `${JSON.stringify(result, null, 2)}\n`);
    if (process.env.PROFILE_KEEP === '1') copyFileSync(join(state.profDir, file), join(OUT, `profile-${slug}.cpuprofile`));
    const md = `# CPU profile: Rosetta${state.baseline ? ` at ${state.baseline.short} (${state.baseline.subject})` : ''}, ${TARGET}, ${CONNECTIONS} connections${LIMITED ? `, ${KEY_KIND === 'enterprise' ? 'key with limits' : `${KEY_KIND} key`} ${JSON.stringify(result.key)}` : ''}${NODE_ARGS.length ? `, node ${NODE_ARGS.join(' ')}` : ''}

Recorded by \`node bench/profile.js\` on ${result.generatedAt}: ${SECONDS} s measured after a 3 s warm-up,
${result.load.rps} req/s, p50 ${result.load.latencyMs.p50} ms, p99 ${result.load.latencyMs.p99} ms, ${result.load.errors} errors,
${result.load.cpuCores} CPU cores used by the gateway, **${result.cpuMsPerRequest} ms of CPU per request**.
${summary.sampledMs} ms of samples inside the measured window${summary.windowApplied ? '' : ' (window not applied: whole profile)'}.

## Self time by module

${mdTable(['module', 'self ms', '%'], summary.selfByModule.slice(0, 20).map((e) => [e.key, e.ms, e.pct]))}

## Inclusive time by module (module anywhere on the stack)

${mdTable(['module', 'ms', '%'], summary.inclusiveByModule.slice(0, 20).map((e) => [e.key, e.ms, e.pct]))}

## Top functions by self time

${mdTable(['function', 'where', 'self ms', '%'], summary.selfByFunction.slice(0, 30).map((e) => [`\`${e.functionName}\``, `${e.url}:${e.line}`, e.ms, e.pct]))}

## Top functions by inclusive time

${mdTable(['function (file:line)', 'ms', '%'], summary.inclusiveByFunction.slice(0, 40).map((e) => [`\`${e.key}\``, e.ms, e.pct]))}

## Per request

${mdTable(['Redis command', 'calls', 'per request', 'µs per call (server)'], Object.entries(result.redisPerRequest).map(([k, v]) => [k, v.calls, v.perRequest, v.usecPerCall]))}

${mdTable(['PostgreSQL (pg_stat_database)', 'total', 'per request'], Object.entries(result.postgresPerRequest).map(([k, v]) => [k, v.total, v.perRequest]))}

${result.note}
`;
    writeFileSync(join(OUT, `profile-${slug}.md`), md);
    process.stdout.write(md);
    log(`wrote ${join(OUT, `profile-${slug}.md`)} and .json`);
  } catch (error) {
    log(`failed: ${error.stack || error.message}`);
    process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

main();
