#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// One process, run by bench/lib/cloud-signing.js: the CPU a cloud call's credentials add per
// request, on the built gateway's own code (`platformRequest` and the transport's body encoding).
// - unsigned: an Azure call with its key in `api-key` (what every public-API call does: a header);
// - bedrock-sigv4: SigV4 with static credentials from the variables (the default chain, memoised);
// - vertex-bearer: a Google access token from a loopback metadata server, cached after one fetch.
// Rounds alternate the variants; each variant's CPU per call is the median over rounds. Prints JSON.
const { join } = require('node:path');

const root = process.argv[2] || join(__dirname, '..');
const dist = (path) => require(join(root, 'dist', path));
const CALLS = Number(process.env.CLOUD_SIGNING_CALLS || 20_000);
const ROUNDS = Number(process.env.CLOUD_SIGNING_ROUNDS || 7);
// Until the JIT has settled: a variant's first ten thousand calls cost several times its later ones.
const WARM_UP = 30_000;

/** A chat request of a typical agent turn's size (about 4 KB of JSON). */
function body() {
  const messages = [];
  for (let i = 0; i < 24; i += 1) messages.push({ role: i % 2 ? 'assistant' : 'user', content: `Turn ${i}: ${'a sentence of ordinary prose for the model to read. '.repeat(3)}` });
  return { model: 'm', max_tokens: 1024, messages };
}

function cpuMicros(start) {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

async function measure(call) {
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i += 1) await call();
  return cpuMicros(start) / CALLS;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main() {
  const { startGoogleTokenServer } = dist('apps/simulator/src/clouds/google-token-server');
  const tokens = await startGoogleTokenServer({ expiresInSeconds: 3600 });
  Object.assign(process.env, {
    GCE_METADATA_HOST: tokens.metadataHost,
    GOOGLE_APPLICATION_CREDENTIALS: '',
    AWS_ACCESS_KEY_ID: 'AKIABENCHMARK00000',
    AWS_SECRET_ACCESS_KEY: 'bench-secret-access-key',
  });
  delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
  const { platformRequest } = dist('libs/providers/src/credentials/platform-request');
  const { serialise } = dist('libs/providers/src/http-transport');
  const wire = body();
  const headers = { 'x-request-id': 'req_bench' };
  const send = (input) => platformRequest({ upstreamModel: 'm', apiKey: '', headers, body: wire, ...input }).then((sent) => serialise(sent.body));
  const variants = {
    unsigned: () => send({ provider: 'azure', platform: { kind: 'azure', auth: 'api-key' }, baseUrl: 'https://r.openai.azure.com', path: '/chat/completions', apiKey: 'azure-key' }),
    'bedrock-sigv4': () => send({ provider: 'bedrock', platform: { kind: 'bedrock', region: 'us-east-1' }, baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com', path: '/model/m/converse' }),
    'vertex-bearer': () => send({ provider: 'vertex', platform: { kind: 'vertex', project: 'bench-project', location: 'global' }, baseUrl: 'https://aiplatform.googleapis.com', path: '/v1beta/models/m:generateContent' }),
  };
  // Warm-up: loads the libraries, fetches the one token, compiles the hot paths.
  for (const call of Object.values(variants)) for (let i = 0; i < WARM_UP; i += 1) await call();
  const perCall = Object.fromEntries(Object.keys(variants).map((name) => [name, []]));
  const names = Object.keys(variants);
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let k = 0; k < names.length; k += 1) {
      const name = names[(round + k) % names.length];
      perCall[name].push(await measure(variants[name]));
    }
  }
  const micros = Object.fromEntries(names.map((name) => [name, median(perCall[name])]));
  const result = {
    calls: CALLS,
    rounds: ROUNDS,
    bodyBytes: Buffer.byteLength(JSON.stringify(wire)),
    cpuMicrosPerCall: micros,
    addedCpuMicros: { 'bedrock-sigv4': micros['bedrock-sigv4'] - micros.unsigned, 'vertex-bearer': micros['vertex-bearer'] - micros.unsigned },
    tokenFetches: tokens.issued().length,
    calledPerVariant: CALLS * ROUNDS + WARM_UP,
  };
  await tokens.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
