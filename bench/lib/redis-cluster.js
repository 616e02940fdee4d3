/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// A three-master Redis Cluster on loopback for a run (BENCH_REDIS=cluster): redis-server children
// in a temp directory, slots assigned by `redis-cli --cluster create`, removed afterwards.
const { execFile } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const os = require('node:os');
const { join } = require('node:path');
const Redis = require('ioredis');
const { startChild, stopChild, freePort, sleep } = require('./proc');

function run(command, args) {
  return new Promise((resolve, reject) => execFile(command, args, { timeout: 60_000 }, (error, stdout, stderr) => (error ? reject(new Error(`${command}: ${stderr || error.message}`)) : resolve(stdout))));
}

/** Three masters, every slot assigned; resolves once each node says cluster_state:ok. */
async function startRedisCluster(masters = 3) {
  const dir = mkdtempSync(join(os.tmpdir(), 'rosetta-bench-cluster-'));
  const nodes = [];
  const children = [];
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child, 3000).catch(() => {})));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i += 1) {
      const port = await freePort();
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '5000'];
      children.push(startChild(`redis-${port}`, 'redis-server', args, { cwd: dir }));
      nodes.push(`127.0.0.1:${port}`);
    }
    for (const node of nodes) await waitFor(node, async (client) => (await client.ping()) === 'PONG');
    await run('redis-cli', ['--cluster', 'create', ...nodes, '--cluster-replicas', '0', '--cluster-yes']);
    for (const node of nodes) await waitFor(node, async (client) => /cluster_state:ok/.test(await client.cluster('INFO')));
    const version = /redis_version:(\S+)/.exec(await withClient(nodes[0], (client) => client.info('server')));
    return { url: null, db: null, version: version ? `${version[1]} (cluster of ${masters})` : null, env: { REDIS_CLUSTER_NODES: nodes.join(',') }, nodes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function withClient(node, use) {
  const [host, port] = node.split(':');
  const client = new Redis({ host, port: Number(port), lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => {}); // a node not up yet: the connect call says so
  try {
    await client.connect();
    return await use(client);
  } finally {
    client.disconnect();
  }
}

async function waitFor(node, check, withinMs = 30_000) {
  const until = Date.now() + withinMs;
  for (;;) {
    const ok = await withClient(node, check).catch(() => false);
    if (ok) return;
    if (Date.now() > until) throw new Error(`redis ${node} not ready in ${withinMs} ms`);
    await sleep(100);
  }
}

module.exports = { startRedisCluster };
