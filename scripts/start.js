#!/usr/bin/env node
// `npm start`: build if needed, then run the gateway. With no upstream credentials at all, start
// the bundled simulator first and point every built-in provider at it, saying so loudly.
const { spawn } = require('node:child_process');
const { join } = require('node:path');
const { ensureBuilt } = require('./ensure-built');

const root = join(__dirname, '..');
const env = { ...process.env };
const hasCredentials = ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'PROVIDERS_FILE'].some((n) => env[n]);

async function startSimulator() {
  const port = env.SIMULATOR_PORT || '8081';
  const child = spawn(process.execPath, [join(root, 'dist/apps/simulator/src/main.js')], {
    env: { ...env, SIM_PORT: port, SIM_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`simulator exited with code ${code}`)));
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      if (String(chunk).includes('simulator listening')) resolve();
    });
  });
  const base = `http://127.0.0.1:${port}`;
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
  const simulator = hasCredentials ? undefined : await startSimulator();
  const gateway = spawn(process.execPath, ['--enable-source-maps', join(root, 'dist/apps/gateway/src/main.js')], { env, stdio: 'inherit' });
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
