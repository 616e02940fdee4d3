#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// One process, run by bench/lib/response-cache.js: what a response-cache miss adds before the
// upstream call, on the built gateway's own code, measured apart from the machine's noise:
// - cpu: the ticket (settings, Cache-Control, the sorted canonical request hashed in its scope),
//   per request, over decoding the same request without it;
// - redis: the lookup's round trip (a GET of a key that is not there) on an idle connection.
// The answer's store is sent, not awaited, as the response is written. Prints JSON.
const { join } = require('node:path');

const root = process.argv[2] || join(__dirname, '..');
const redisUrl = process.argv[3];
const dist = (path) => require(join(root, 'dist', path));
const CALLS = 20_000;
const ROUNDS = 7;
const WARM_UP = 30_000;

/** A chat request of a typical agent turn's size (about 4 KB of JSON), as the gateway receives it. */
function body(i) {
  const messages = [{ role: 'system', content: 'You are a careful assistant.' }];
  for (let t = 0; t < 24; t += 1) messages.push({ role: t % 2 ? 'assistant' : 'user', content: `Turn ${t}: ${'a sentence of ordinary prose for the model to read. '.repeat(3)}` });
  messages.push({ role: 'user', content: `question ${i}` });
  return { model: 'rosetta/gpt-4o-mini', max_tokens: 1024, messages };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function cpuPerCall(call) {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i += 1) call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / CALLS;
}

async function main() {
  const { convertOpenAIChatRequest } = dist('libs/protocols/openai-chat/src');
  const cache = dist('libs/cache/src');
  const key = { id: 'k', teamId: 't', plan: 'enterprise', cache: { mode: 'exact', ttlS: 3600, similarity: 0.95 }, promptCache: null };
  const decode = (i) => convertOpenAIChatRequest({ body: body(i) }).value;
  const withTicket = (i) => {
    const request = decode(i);
    const { cache: settings } = cache.effectiveCache(key, undefined);
    const directives = cache.cacheDirectives(undefined);
    return settings && directives.write && !cache.uncacheableReason(request) && cache.responseCacheKey(request, cache.cacheScope(key));
  };
  for (let i = 0; i < WARM_UP; i += 1) {
    withTicket(i);
    decode(i);
  }
  const off = [];
  const on = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    off.push(cpuPerCall(decode));
    on.push(cpuPerCall(withTicket));
  }
  const result = { calls: CALLS, rounds: ROUNDS, bodyBytes: JSON.stringify(body(0)).length, cpuMicrosDecode: median(off), cpuMicrosWithTicket: median(on) };
  result.addedCpuMicros = Math.max(0, result.cpuMicrosWithTicket - result.cpuMicrosDecode);
  if (redisUrl) {
    const Redis = require(join(root, 'node_modules', 'ioredis'));
    const redis = new Redis(redisUrl);
    await redis.ping();
    const times = [];
    for (let i = 0; i < 3000; i += 1) {
      const start = process.hrtime.bigint();
      await redis.get(`rosetta:rcache:bench-absent-${i}`);
      times.push(Number(process.hrtime.bigint() - start) / 1000);
    }
    redis.disconnect();
    result.redisGetMicrosP50 = median(times);
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
