#!/usr/bin/env node
// `npm start`: build if needed, then run the gateway. With no upstream credentials at all, start
// the bundled simulator first and point every built-in provider at it, saying so loudly — unless
// SIMULATOR_URL names one already running, which the gateway then uses itself (config.ts).
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { ensureBuilt } = require('./ensure-built');
const { GATEWAY_NODE_FLAGS } = require('./gateway-node-flags');

const root = join(__dirname, '..');
const env = { ...process.env };
// A PROVIDERS_FILE alone keeps the simulator for the built-in providers: the file's providers
// serve their models beside it, as providers added through the admin API do.
// A cloud's variables (BEDROCK_REGION, VERTEX_PROJECT) are credentials too: real models serve.
const hasCredentials = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'BEDROCK_REGION', 'VERTEX_PROJECT'].some((n) => env[n]);

/**
 * The simulator runs in its own process group, so a Ctrl-C or a group SIGTERM meant for the
 * gateway does not kill the upstream of the streams the gateway is still draining; it is stopped
 * once the gateway has exited, and stops by itself if this launcher dies (its stdin closes).
 * Without SIMULATOR_PORT it takes a free port, so several `npm start`s can run side by side.
 */
async function startSimulator() {
  const child = spawn(process.execPath, [join(root, 'dist/apps/simulator/src/main.js')], {
    env: { ...env, SIM_PORT: env.SIMULATOR_PORT || '0', SIM_HOST: '127.0.0.1', SIM_STOP_ON_STDIN_END: '1' },
    stdio: ['pipe', 'pipe', 'inherit'],
    detached: true,
  });
  const base = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`simulator exited with code ${code}${env.SIMULATOR_PORT ? ` (is SIMULATOR_PORT ${env.SIMULATOR_PORT} free?)` : ''}`)));
    let seen = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      seen += String(chunk);
      const match = /"msg":"simulator listening","url":"([^"]+)"/.exec(seen);
      if (match) resolve(match[1]);
    });
  });
  Object.assign(env, {
    ROSETTA_SIMULATOR: '1',
    OPENAI_BASE_URL: `${base}/v1`,
    OPENAI_API_KEY: 'simulator-openai-key',
    ANTHROPIC_BASE_URL: base,
    ANTHROPIC_API_KEY: 'simulator-anthropic-key',
    GEMINI_BASE_URL: base,
    GEMINI_API_KEY: 'simulator-gemini-key',
  });
  return child;
}

async function main() {
  ensureBuilt();
  const simulator = hasCredentials || env.SIMULATOR_URL ? undefined : await startSimulator();
  const gateway = spawn(process.execPath, [...GATEWAY_NODE_FLAGS, join(root, 'dist/apps/gateway/src/main.js')], { env, stdio: 'inherit' });
  // Forwarded for launchers that signal only this process; when the whole group was signalled the
  // gateway gets it twice and takes the two as one stop request.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => gateway.kill(signal));
  }
  gateway.on('exit', (code, signal) => {
    simulator?.kill('SIGTERM');
    process.exit(code ?? (signal ? 1 : 0));
  });
}

main().catch((error) => {
  process.stderr.write(`rosetta: ${error.message}\n`);
  process.exit(1);
});
