/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// A small raw-HTTP client for streamed (SSE) chat completions. It timestamps, from the moment the
// request is written: the response head, the first `data:` event, the first event carrying a
// content token, and the gap between consecutive content events as they arrive on the socket.
// Two drivers: `streamLatency` (a fixed number of streams at low concurrency, for time to first
// token and inter-chunk gaps) and `holdStreams` (many slow streams open at once, for memory).
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const { summarise, round } = require('./stats');
const { startSampler } = require('./proc');
const { mb } = require('./load');

const CONTENT_TOKEN = /"content":"[^"]/;
const open = new Set();

/** Destroys every stream still open (Ctrl-C, failure). */
function abortAllStreams() {
  for (const req of open) req.destroy();
}

/**
 * One streamed request. Resolves (never rejects) with
 * {status, headMs, firstEventMs, firstTokenMs, gaps[], tokens, done, totalMs, error}.
 */
function streamOnce(target, { agent, timeoutMs = 60_000, onHead, onEnd } = {}) {
  return new Promise((resolve) => {
    const url = new URL(target.url);
    const outcome = { status: 0, headMs: null, firstEventMs: null, firstTokenMs: null, gaps: [], tokens: 0, done: false, totalMs: null, error: null };
    let settled = false;
    let headSeen = false;
    const finish = (error) => {
      if (settled) return;
      settled = true;
      open.delete(req);
      if (error && !outcome.error) outcome.error = error;
      outcome.totalMs = performance.now() - started;
      if (headSeen && onEnd) onEnd();
      resolve(outcome);
    };
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', headers: { ...target.headers, 'content-length': Buffer.byteLength(target.body) }, agent },
      (res) => {
        outcome.status = res.statusCode;
        outcome.headMs = performance.now() - started;
        headSeen = true;
        if (onHead) onHead();
        let buffer = '';
        let lastToken = null;
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          const at = performance.now() - started;
          buffer += chunk;
          let boundary;
          while ((boundary = buffer.search(/\r?\n\r?\n/)) !== -1) {
            const event = buffer.slice(0, boundary);
            buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
            const dataLines = event.split(/\r?\n/).filter((line) => line.startsWith('data:'));
            if (dataLines.length === 0) continue;
            const data = dataLines.map((line) => line.slice(5).trimStart()).join('\n');
            if (outcome.firstEventMs === null) outcome.firstEventMs = at;
            if (data === '[DONE]') {
              outcome.done = true;
              continue;
            }
            if (CONTENT_TOKEN.test(data)) {
              outcome.tokens += 1;
              if (outcome.firstTokenMs === null) outcome.firstTokenMs = at;
              if (lastToken !== null) outcome.gaps.push(at - lastToken);
              lastToken = at;
            }
          }
        });
        // A refusal's own message says why (the gateway's error body), not just its status.
        const refusal = () => {
          const message = /"message":"([^"]{0,160})/.exec(buffer)?.[1];
          return `HTTP ${res.statusCode}${message ? `: ${message}` : ''}`;
        };
        res.on('end', () => finish(res.statusCode >= 200 && res.statusCode < 300 ? (outcome.done ? null : 'stream ended without [DONE]') : refusal()));
        res.on('error', (error) => finish(error.message));
        res.on('aborted', () => finish('response aborted'));
      },
    );
    open.add(req);
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', (error) => finish(error.message));
    const started = performance.now();
    req.end(target.body);
  });
}

/**
 * `count` streams (after `warmup` discarded ones), `concurrency` at a time on keep-alive sockets.
 * Returns time to first event / first token and inter-token gap summaries, and errors.
 */
async function streamLatency(target, { count, concurrency, warmup = 10 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  try {
    const run = async (n) => {
      const outcomes = [];
      let next = 0;
      const worker = async () => {
        while (next < n) {
          next += 1;
          outcomes.push(await streamOnce(target, { agent, timeoutMs: 30_000 }));
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return outcomes;
    };
    await run(warmup);
    const sampler = target.pid ? startSampler(target.pid) : null;
    const outcomes = await run(count);
    const resources = sampler ? sampler.stop() : null;
    return streamPoint(target.name, concurrency, outcomes, resources && [resources]);
  } finally {
    agent.destroy();
  }
}

function streamPoint(name, concurrency, outcomes, resources) {
  const good = outcomes.filter((o) => !o.error);
  const errors = outcomes.filter((o) => o.error);
  const cpu = resources ? resources.reduce((a, r) => a + (r.cpuSeconds || 0), 0) : 0;
  const wall = resources ? resources.reduce((a, r) => a + (r.wallSeconds || 0), 0) : 0;
  const point = {
    target: name,
    streams: outcomes.length,
    concurrency,
    errors: errors.length,
    errorSamples: [...new Set(errors.map((o) => o.error))].slice(0, 5),
    tokensPerStream: good.length ? round(good.reduce((a, o) => a + o.tokens, 0) / good.length, 1) : null,
    headMs: summarise(good.map((o) => o.headMs)),
    firstEventMs: summarise(good.map((o) => o.firstEventMs)),
    ttftMs: summarise(good.map((o) => o.firstTokenMs)),
    gapMs: summarise(good.flatMap((o) => o.gaps)),
    totalMs: summarise(good.map((o) => o.totalMs)),
    resources: resources && { rssPeakMB: mb(Math.max(...resources.map((r) => r.rssPeakBytes))), cpuCores: wall ? round(cpu / wall, 3) : null },
  };
  Object.defineProperty(point, 'samples', { value: { outcomes, resources }, enumerable: false });
  return point;
}

/** Rounds of the same streaming test (interleaved with other targets) as one point. */
function mergeStreamPoints(points) {
  const merged = streamPoint(
    points[0].target,
    points[0].concurrency,
    points.flatMap((p) => p.samples.outcomes),
    points.every((p) => p.samples.resources) ? points.flatMap((p) => p.samples.resources) : null,
  );
  merged.rounds = points.length;
  merged.roundsTtftP50 = points.map((p) => p.ttftMs.p50);
  return merged;
}

/**
 * Opens `count` slow streams over `rampMs` (one socket each) and holds them until they end,
 * sampling the target process's RSS. Reports the peak number open at once, peak and mean RSS
 * while they were all open, and every error (non-2xx, socket error, stream without [DONE]).
 */
async function holdStreams(target, { count, rampMs, timeoutMs }) {
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  const rss = target.pid ? startSampler(target.pid, 200) : null;
  let openNow = 0;
  let maxOpen = 0;
  let allOpenAt = null;
  const startedAt = performance.now();
  const rssWhileAllOpen = [];
  const { readRss } = require('./proc');
  const watch = setInterval(() => {
    if (target.pid && openNow >= count) {
      const value = readRss(target.pid);
      if (value !== null) rssWhileAllOpen.push(value);
    }
  }, 200);
  try {
    const pending = [];
    for (let i = 0; i < count; i += 1) {
      const due = startedAt + (rampMs * i) / count;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.push(
        streamOnce(target, {
          agent,
          timeoutMs,
          onHead: () => {
            openNow += 1;
            if (openNow > maxOpen) maxOpen = openNow;
            if (openNow >= count && allOpenAt === null) allOpenAt = performance.now() - startedAt;
          },
          onEnd: () => {
            openNow -= 1;
          },
        }),
      );
    }
    const outcomes = await Promise.all(pending);
    const resources = rss ? rss.stop() : null;
    const errors = outcomes.filter((o) => o.error);
    return {
      target: target.name,
      streams: count,
      rampMs,
      maxOpen,
      allOpenAfterMs: allOpenAt === null ? null : Math.round(allOpenAt),
      completed: outcomes.filter((o) => !o.error).length,
      errors: errors.length,
      errorSamples: [...new Set(errors.map((o) => o.error))].slice(0, 5),
      durationS: round((performance.now() - startedAt) / 1000, 1),
      rssPeakMB: resources ? mb(resources.rssPeakBytes) : null,
      rssMeanMB: resources ? mb(resources.rssMeanBytes) : null,
      rssAllOpenPeakMB: rssWhileAllOpen.length ? mb(Math.max(...rssWhileAllOpen)) : null,
      cpuCores: resources ? round(resources.cpuCores, 3) : null,
      ttftMs: summarise(outcomes.filter((o) => !o.error).map((o) => o.firstTokenMs)),
    };
  } finally {
    clearInterval(watch);
    if (rss) rss.stop();
    agent.destroy();
  }
}

module.exports = { streamOnce, streamLatency, mergeStreamPoints, holdStreams, abortAllStreams };
