/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// Child processes for the benchmark: start, wait until ready, stop (always), and read a process's
// memory and CPU (proc-stats.js). Every child started here is remembered so a failure or Ctrl-C still
// stops it.
const { spawn } = require('node:child_process');
const http = require('node:http');
const net = require('node:net');
const { readCpuSeconds, readMachineCpu, readRss, readTreeCpuSeconds } = require('./proc-stats');

const children = new Set();

/**
 * Starts a child; its output is kept (last lines) for error messages and `waitForLine`.
 * `group: true` starts it in a process group of its own, which stopping signals as a whole (for
 * commands that spawn their own children, e.g. `npm run build` → sh → tsc).
 */
function startChild(name, command, args, { env, cwd, group = false } = {}) {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: group });
  const lines = [];
  const listeners = new Set();
  const handle = {
    name,
    child,
    pid: child.pid,
    group,
    lines,
    exited: false,
    exitCode: null,
    exitPromise: null,
    tail(n = 20) {
      return lines.slice(-n).join('\n');
    },
    /** Calls `fn` with every output line from now on (`lines` keeps only the last 200); returns a stop function. */
    onLine(fn) {
      const listener = (line) => {
        if (line !== null) fn(line);
      };
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** Resolves with the first output line (past or future) matching `pattern`. */
    waitForLine(pattern, timeoutMs) {
      const seen = lines.find((line) => pattern.test(line));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(onLine);
          reject(new Error(`${name}: no line matching ${pattern} within ${timeoutMs} ms\n${handle.tail()}`));
        }, timeoutMs);
        const onLine = (line) => {
          if (line === null) {
            clearTimeout(timer);
            listeners.delete(onLine);
            reject(new Error(`${name} exited (code ${handle.exitCode}) before printing ${pattern}\n${handle.tail()}`));
          } else if (pattern.test(line)) {
            clearTimeout(timer);
            listeners.delete(onLine);
            resolve(line);
          }
        };
        listeners.add(onLine);
      });
    },
  };
  const collect = (stream) => {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop();
      for (const line of parts) {
        lines.push(line);
        if (lines.length > 200) lines.splice(0, lines.length - 200);
        for (const listener of [...listeners]) listener(line);
      }
      if (partial.length > 64 * 1024) partial = partial.slice(-64 * 1024);
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  handle.exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      handle.exited = true;
      handle.exitCode = code ?? signal;
      children.delete(handle);
      for (const listener of [...listeners]) listener(null);
      resolve(handle.exitCode);
    });
    child.on('error', (error) => {
      lines.push(`spawn error: ${error.message}`);
      handle.exited = true;
      children.delete(handle);
      for (const listener of [...listeners]) listener(null);
      resolve(-1);
    });
  });
  children.add(handle);
  return handle;
}

/** Sends `signal` to a child, or to its whole process group when it was started with `group`. */
function signalChild(handle, signal) {
  try {
    if (handle.group && handle.pid) process.kill(-handle.pid, signal);
    else handle.child.kill(signal);
  } catch {
    /* already gone */
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
async function stopChild(handle, graceMs = 8000) {
  if (!handle || handle.exited) return;
  signalChild(handle, 'SIGTERM');
  const timer = setTimeout(() => {
    if (!handle.exited) signalChild(handle, 'SIGKILL');
  }, graceMs);
  await handle.exitPromise;
  clearTimeout(timer);
}

async function stopAll(graceMs) {
  await Promise.all([...children].map((handle) => stopChild(handle, graceMs)));
}

/** Last resort on process exit: SIGKILL whatever is still running (synchronous). */
function killAllSync() {
  for (const handle of children) signalChild(handle, 'SIGKILL');
}

/** A port free on 127.0.0.1 right now (bound to 0, read, released). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** One plain HTTP request; resolves {status, body} (body as text). */
function httpRequest(url, { method = 'GET', headers = {}, body, timeoutMs = 5000 } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls `url` until `accept(response)` holds, or fails after `timeoutMs` (or when `handle` exits). */
async function waitForHttp(url, accept, timeoutMs, handle) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (handle && handle.exited) throw new Error(`${handle.name} exited (code ${handle.exitCode}) while starting\n${handle.tail()}`);
    try {
      const response = await httpRequest(url, { timeoutMs: 2000 });
      if (accept(response)) return response;
      last = `HTTP ${response.status} ${response.body.slice(0, 200)}`;
    } catch (error) {
      last = error.message;
    }
    await sleep(200);
  }
  throw new Error(`${url} not ready within ${timeoutMs} ms (${last})${handle ? `\n${handle.tail()}` : ''}`);
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** CPU seconds used so far by this process and every child still running (the run's own work). */
function readRunCpuSeconds() {
  let sum = readCpuSeconds(process.pid) || 0;
  for (const handle of children) sum += readTreeCpuSeconds(handle.pid) || 0;
  return sum;
}

/**
 * Samples RSS of `pid` and its descendants every `intervalMs` and their CPU time at start and stop. `stop()` returns
 * {rssMeanBytes, rssPeakBytes, rssLastBytes, samples, cpuSeconds, wallSeconds, cpuCores}.
 */
function startSampler(pid, intervalMs = 250) {
  const rss = [];
  const cpuStart = readTreeCpuSeconds(pid);
  const wallStart = process.hrtime.bigint();
  const take = () => {
    const value = readRss(pid);
    if (value !== null) rss.push(value);
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      const cpuEnd = readTreeCpuSeconds(pid);
      const wallSeconds = Number(process.hrtime.bigint() - wallStart) / 1e9;
      const cpuSeconds = cpuStart !== null && cpuEnd !== null ? cpuEnd - cpuStart : null;
      return {
        rssMeanBytes: rss.length ? Math.round(rss.reduce((a, b) => a + b, 0) / rss.length) : null,
        rssPeakBytes: rss.length ? Math.max(...rss) : null,
        rssLastBytes: rss.length ? rss[rss.length - 1] : null,
        samples: rss.length,
        cpuSeconds,
        wallSeconds,
        cpuCores: cpuSeconds !== null && wallSeconds > 0 ? cpuSeconds / wallSeconds : null,
      };
    },
  };
}

module.exports = {
  startChild,
  stopChild,
  stopAll,
  killAllSync,
  freePort,
  httpRequest,
  waitForHttp,
  sleep,
  readRss,
  readCpuSeconds,
  readTreeCpuSeconds,
  readMachineCpu,
  readRunCpuSeconds,
  startSampler,
  children,
};
