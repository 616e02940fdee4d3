#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// `BENCH_OTEL=1`: a stand-in OpenTelemetry collector for benchmarks. Accepts OTLP/HTTP trace
// exports (`POST /v1/traces`, JSON or protobuf), reads and discards them, and counts what came;
// `GET /stats` answers {requests, bytes}. Its own process, so its work is not the load
// generator's. Environment: SINK_PORT (0 = free port). Prints one JSON line
// {"msg":"otlp sink listening","url":...,"port":...} when ready.
const { createServer } = require('node:http');

const stats = { requests: 0, bytes: 0 };
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
    return;
  }
  req.on('data', (chunk) => (stats.bytes += chunk.length));
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') return res.writeHead(404).end();
    stats.requests += 1;
    // An empty ExportTraceServiceResponse: zero bytes in protobuf, `{}` in JSON.
    const json = (req.headers['content-type'] || '').startsWith('application/json');
    res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : undefined);
  });
});
server.listen(Number(process.env.SINK_PORT || 0), '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(`${JSON.stringify({ level: 'info', msg: 'otlp sink listening', url: `http://127.0.0.1:${port}`, port })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
