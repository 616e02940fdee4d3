#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The floor: the least a Node gateway can do, as a reference target (not a product). A bare
// node:http server that reads the JSON body, parses and re-serialises it (any gateway must read
// the model), forwards it with undici over kept-alive connections to FLOOR_UPSTREAM + the same
// path, and pipes the upstream answer back untouched (streams included). Whatever it adds over
// the direct upstream is the cost of one more Node process and two more loopback hops on this
// machine, which no Node gateway can go below.
// Env: FLOOR_UPSTREAM (required, e.g. http://127.0.0.1:8081), FLOOR_PORT (0 = free port).
// Prints one JSON line {"msg":"floor listening","port":...} when ready.
const http = require('node:http');
const { Agent, request } = require('undici');

const upstream = process.env.FLOOR_UPSTREAM;
if (!upstream) {
  process.stderr.write('bench/floor-proxy: FLOOR_UPSTREAM is required\n');
  process.exit(1);
}
const agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 });

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    try {
      const body = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      const headers = { 'content-type': 'application/json' };
      if (req.headers.authorization) headers.authorization = req.headers.authorization;
      const answer = await request(upstream + req.url, { method: req.method, headers, body, dispatcher: agent });
      res.writeHead(answer.statusCode, { 'content-type': answer.headers['content-type'] || 'application/json' });
      answer.body.on('data', (chunk) => res.write(chunk));
      answer.body.on('end', () => res.end());
      answer.body.on('error', () => res.destroy());
      res.on('close', () => answer.body.destroy());
    } catch (error) {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: error.message } }));
    }
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.FLOOR_PORT || 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ msg: 'floor listening', port: server.address().port })}\n`);
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
