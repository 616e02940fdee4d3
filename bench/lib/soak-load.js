/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The soak's load: a steady open-loop rate of requests rotating over the four dialects, streamed
// and not, each read to its end and checked for the dialect's clean finish; and the memory of a
// process tree (a replica with WORKERS is a primary and its workers).
const http = require('node:http');
const { readdirSync, readFileSync } = require('node:fs');
const { streamingPrompt } = require('./run-support');

/** `pid` and every descendant (null when `pid` is gone). */
function treePids(pid) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone between the listing and the read
    }
  }
  if (!parentOf.has(pid)) return null;
  const inTree = (candidate) => {
    for (let p = candidate; p > 1; p = parentOf.get(p) ?? 0) if (p === pid) return true;
    return false;
  };
  return [...parentOf.keys()].filter(inTree);
}

/**
 * Memory of `pid` and every descendant, in bytes (null when `pid` is gone): `rss`, the resident
 * sets added up, which counts the pages the processes share (the node binary and libraries,
 * ~50 MB) once per process; and `charged`, each process's own (anonymous) memory added up plus the
 * largest file-backed resident set once — what a container's memory limit is charged for them.
 */
function treeMemory(pid) {
  const pids = treePids(pid);
  if (pids === null) return null;
  let rss = 0;
  let anonymous = 0;
  let file = 0;
  for (const candidate of pids) {
    try {
      const status = readFileSync(`/proc/${candidate}/status`, 'utf8');
      const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
      rss += field('VmRSS');
      anonymous += field('RssAnon');
      file = Math.max(file, field('RssFile') + field('RssShmem'));
    } catch {
      // exited
    }
  }
  return { rss, charged: anonymous + file };
}

/** Resident memory of `pid` and every descendant, in bytes, shared pages counted per process (null when `pid` is gone). */
function treeRss(pid) {
  return treeMemory(pid)?.rss ?? null;
}

/**
 * The requests the soak rotates over, each with the text that only its clean finish contains
 * (a stream cut or ended with an in-stream error lacks it).
 */
function soakRequests(gatewayUrl, key) {
  const prompt = streamingPrompt({ words: 24, tokensPerSecond: 120 });
  const user = [{ role: 'user', content: prompt }];
  const openai = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const anthropic = { 'content-type': 'application/json', 'x-api-key': key, 'anthropic-version': '2023-06-01' };
  const gemini = { 'content-type': 'application/json', 'x-goog-api-key': key };
  const geminiBody = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: prompt }] }] });
  return [
    { name: 'A stream → openai', path: '/v1/chat/completions', headers: openai, body: { model: 'rosetta/gpt-4o-mini', stream: true, messages: user }, finish: 'data: [DONE]' },
    { name: 'B stream → anthropic', path: '/v1/messages', headers: anthropic, body: { model: 'rosetta/claude-haiku-4-5', max_tokens: 256, stream: true, messages: user }, finish: 'event: message_stop' },
    { name: 'C stream → gemini', path: '/v1beta/models/rosetta/gemini-2.5-flash:streamGenerateContent?alt=sse', headers: gemini, raw: geminiBody, finish: '"finishReason":"STOP"' },
    { name: 'D stream → openai', path: '/v1/responses', headers: openai, body: { model: 'rosetta/gpt-4o-mini', stream: true, store: false, input: prompt }, finish: 'event: response.completed' },
    { name: 'A → anthropic', path: '/v1/chat/completions', headers: openai, body: { model: 'rosetta/claude-haiku-4-5', messages: user }, finish: '"finish_reason":"stop"' },
    { name: 'B → gemini', path: '/v1/messages', headers: anthropic, body: { model: 'rosetta/gemini-2.5-flash', max_tokens: 256, messages: user }, finish: '"stop_reason":"end_turn"' },
    { name: 'C → openai', path: '/v1beta/models/rosetta/gpt-4o-mini:generateContent', headers: gemini, raw: geminiBody, finish: '"finishReason":"STOP"' },
    { name: 'D → anthropic', path: '/v1/responses', headers: openai, body: { model: 'rosetta/claude-haiku-4-5', store: true, input: prompt }, finish: '"status":"completed"' },
  ].map((r) => ({ ...r, url: new URL(r.path, gatewayUrl), payload: r.raw ?? JSON.stringify(r.body) }));
}

/** One request read to its end: resolves with null when it finished cleanly, else what went wrong. */
function sendOnce(request, agent, timeoutMs) {
  return new Promise((resolve) => {
    const req = http.request(
      { host: request.url.hostname, port: request.url.port, path: request.url.pathname + request.url.search, method: 'POST', agent, headers: { ...request.headers, 'content-length': Buffer.byteLength(request.payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => {
          if (res.statusCode !== 200) resolve(`${request.name}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
          else resolve(text.includes(request.finish) ? null : `${request.name}: no clean finish: ${text.slice(-200)}`);
        });
        res.on('error', (error) => resolve(`${request.name}: ${error.message}`));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve(`${request.name}: ${error.message}`));
    req.end(request.payload);
  });
}

/**
 * Sends `rate` requests a second for `durationMs` (open loop: a slow answer does not slow the rate),
 * rotating over `requests`; calls `onSample` every `sampleMs` with the counts so far. Resolves when
 * every request sent has ended.
 */
async function steadyLoad(requests, { rate, durationMs, sampleMs, onSample, timeoutMs = 30_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const counts = { sent: 0, ok: 0, failed: 0, inFlight: 0, failures: new Map() };
  const pending = new Set();
  const started = Date.now();
  const sampler = setInterval(() => onSample(counts, Date.now() - started), sampleMs);
  try {
    for (let i = 0; Date.now() - started < durationMs; i += 1) {
      const due = started + (i * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const request = requests[i % requests.length];
      counts.sent += 1;
      counts.inFlight += 1;
      const done = sendOnce(request, agent, timeoutMs).then((failure) => {
        counts.inFlight -= 1;
        if (failure === null) counts.ok += 1;
        else {
          counts.failed += 1;
          const kind = failure.slice(0, 160);
          counts.failures.set(kind, (counts.failures.get(kind) ?? 0) + 1);
        }
        pending.delete(done);
      });
      pending.add(done);
    }
    await Promise.all([...pending]);
    return counts;
  } finally {
    clearInterval(sampler);
    agent.destroy();
  }
}

/** Least-squares slope of `points` ([x, y] pairs), in y per x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

module.exports = { treeRss, treeMemory, soakRequests, sendOnce, steadyLoad, slope };
