/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// What the load is sent to: the OpenAI-protocol targets compared throughout, the dialect matrix's
// requests, and a preflight request for each.
const { httpRequest } = require('./proc');
const { SIM_KEY } = require('./env');

const SHORT_PROMPT = 'Say hello to the benchmark in one short sentence.';
/** The prompt of the compared targets: short, or BENCH_PROMPT_BYTES long (e.g. 2048, for BENCH_KEY=guarded). */
const PROMPT = promptOf(Number(process.env.BENCH_PROMPT_BYTES || 0));

/** Plain support-desk prose (no PII, no secrets: what guardrails scan and let through) of `bytes` characters. */
function promptOf(bytes) {
  if (!(bytes > SHORT_PROMPT.length)) return SHORT_PROMPT;
  const filler = ' The assistant should stay polite, avoid speculation about internal systems, cite the order number, and offer next steps.';
  let text = SHORT_PROMPT;
  while (text.length < bytes) text += filler;
  return text.slice(0, bytes);
}

/**
 * The OpenAI-protocol targets compared throughout: direct, Rosetta, (when started) Rosetta at the
 * baseline commit, Portkey, and (when started) the floor proxy.
 */
function openAiTargets({ sim, rosetta, baseline, portkey, floor }, { stream = false, prompt = PROMPT } = {}) {
  const extra = stream ? { stream: true } : {};
  const json = { 'content-type': 'application/json' };
  const rosettaTarget = (gateway) => ({
    name: gateway.name,
    url: `${gateway.url}/v1/chat/completions`,
    headers: { ...json, authorization: `Bearer ${gateway.key}` },
    body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: prompt }], ...extra }),
    pid: gateway.pid,
  });
  const upstreamBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: prompt }], ...extra });
  return [
    { name: 'direct', url: `${sim.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${SIM_KEY}` }, body: upstreamBody, pid: sim.pid },
    rosettaTarget(rosetta),
    ...(baseline ? [rosettaTarget(baseline)] : []),
    {
      name: 'portkey',
      url: `${portkey.url}/v1/chat/completions`,
      headers: { ...json, authorization: `Bearer ${SIM_KEY}`, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${sim.url}/v1` },
      body: upstreamBody,
      pid: portkey.pid,
    },
    ...(floor
      ? [{ name: 'floor', url: `${floor.url}/v1/chat/completions`, headers: { ...json, authorization: `Bearer ${SIM_KEY}` }, body: upstreamBody, pid: floor.pid }]
      : []),
  ];
}

const MODELS = { openai: 'rosetta/gpt-4o-mini', anthropic: 'rosetta/claude-haiku-4-5', gemini: 'rosetta/gemini-2.5-flash', 'openai-responses': 'rosetta/gpt-5-codex' };

/**
 * A request in dialect A/B/C (or D, the Responses API, which the profiler takes) to Rosetta (or
 * the baseline: `rosetta.name`) for a model served over `protocol`.
 */
function dialectTarget(rosetta, dialect, protocol) {
  const model = MODELS[protocol];
  const gateway = rosetta.name || 'rosetta';
  const name = `${dialect}->${protocol}${gateway === 'rosetta' ? '' : ` ${gateway}`}`;
  if (dialect === 'A') {
    return {
      name, gateway, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  if (dialect === 'B') {
    return {
      name, gateway, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/messages`,
      headers: { 'content-type': 'application/json', 'x-api-key': rosetta.key, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model, max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  if (dialect === 'D') {
    return {
      name, gateway, dialect, protocol, pid: rosetta.pid,
      url: `${rosetta.url}/v1/responses`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${rosetta.key}` },
      body: JSON.stringify({ model, input: PROMPT }),
    };
  }
  return {
    name, gateway, dialect, protocol, pid: rosetta.pid,
    url: `${rosetta.url}/v1beta/models/${model}:generateContent`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': rosetta.key },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
  };
}

/** The simulator spoken to directly in each protocol: the baseline for the dialect matrix. */
function directProtocolTarget(sim, protocol) {
  const name = `direct ${protocol}`;
  if (protocol === 'openai') {
    return {
      name, protocol, pid: sim.pid,
      url: `${sim.url}/v1/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SIM_KEY}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  if (protocol === 'anthropic') {
    return {
      name, protocol, pid: sim.pid,
      url: `${sim.url}/v1/messages`,
      headers: { 'content-type': 'application/json', 'x-api-key': SIM_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'claude-haiku-4-5', max_tokens: 256, messages: [{ role: 'user', content: PROMPT }] }),
    };
  }
  return {
    name, protocol, pid: sim.pid,
    url: `${sim.url}/v1beta/models/gemini-2.5-flash:generateContent`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': SIM_KEY },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
  };
}

/** One request per target before measuring: a 2xx with the expected shape, else stop the run. */
async function preflight(target) {
  const response = await httpRequest(target.url, { method: 'POST', headers: target.headers, body: target.body, timeoutMs: 15_000 });
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`preflight ${target.name}: HTTP ${response.status} ${response.body.slice(0, 300)}`);
  }
  if (!/Simulated reply|"text"|"content"/.test(response.body)) {
    throw new Error(`preflight ${target.name}: unexpected body ${response.body.slice(0, 300)}`);
  }
  return response;
}

module.exports = { openAiTargets, dialectTarget, directProtocolTarget, preflight, MODELS };
