#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports, no-console -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `node bench/accept-burst.js`: reproduces, without Rosetta, the first-response tail seen when a
// burst of new connections hits a saturated Node server. A bare node:http server (child process)
// spends BURST_CPU_US of CPU per request (default 600 µs, close to Rosetta's per-request cost) and
// answers 20 ms later. After a warm-up at 64 connections, 256 new connections are opened at once
// for 5 s, twice; the server's accept queue (rx_queue of its LISTEN socket in /proc/net/tcp) is
// sampled every 100 ms, and each connection's first response is reported apart from the rest.
const http = require('node:http');
const { fork } = require('node:child_process');
const { readFileSync } = require('node:fs');
const autocannon = require('autocannon');

const CPU_US = BigInt(process.env.BURST_CPU_US || 600);

function acceptQueue(port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 5 || cols[3] !== '0A') continue;
    if (cols[1].endsWith(`:${hexPort}`)) return parseInt(cols[4].split(':')[1], 16);
  }
  return null;
}

function server() {
  const s = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const t = process.hrtime.bigint();
      while (process.hrtime.bigint() - t < CPU_US * 1000n) {
        /* busy: the per-request CPU of a gateway */
      }
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end('{"ok":true}');
      }, 20);
    });
  });
  s.listen(0, '127.0.0.1', () => process.send(s.address().port));
  process.on('disconnect', () => process.exit(0));
}

async function client() {
  const child = fork(__filename, ['server']);
  const port = await new Promise((resolve) => child.once('message', resolve));
  const url = `http://127.0.0.1:${port}/`;
  try {
    await autocannon({ url, method: 'POST', body: '{}', connections: 64, duration: 2 });
    for (let round = 1; round <= 2; round += 1) {
      const first = new Map();
      const later = [];
      const queue = [];
      const timer = setInterval(() => queue.push(acceptQueue(port)), 100);
      const instance = autocannon({ url, method: 'POST', body: '{}', connections: 256, duration: 5 });
      instance.on('response', (c, _s, _b, ms) => {
        if (!first.has(c)) first.set(c, ms);
        else later.push(ms);
      });
      const result = await instance;
      clearInterval(timer);
      const f = [...first.values()].sort((a, b) => a - b);
      later.sort((a, b) => a - b);
      const q = (a, p) => (a.length ? a[Math.floor(p * (a.length - 1))].toFixed(0) : '–');
      console.log(
        `round ${round}: ${(result['2xx'] / result.duration).toFixed(0)} req/s; first response per connection p50 ${q(f, 0.5)} p90 ${q(f, 0.9)} max ${q(f, 1)} ms; ` +
          `other responses p50 ${q(later, 0.5)} p99 ${q(later, 0.99)} max ${q(later, 1)} ms`,
      );
      console.log(`  accept queue every 100 ms: ${queue.join(' ')}`);
    }
  } finally {
    child.disconnect();
    child.kill();
  }
}

if (process.argv[2] === 'server') server();
else client();
