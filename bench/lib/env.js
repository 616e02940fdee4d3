/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// What every part of the harness shares: the checkout's root, the admin token and simulator key the
// children are started with, and the environment they inherit.
const { join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const SIM_KEY = 'sk-bench-simulator';

function baseEnv() {
  // Only what a process needs; none of the caller's provider credentials leak into the children.
  const keep = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'NODE_EXTRA_CA_CERTS'];
  const env = {};
  for (const name of keep) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

module.exports = { ROOT, ADMIN_TOKEN, SIM_KEY, baseEnv };
