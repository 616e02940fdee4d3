import { startSimulator, type SimulatorOptions } from './simulator';

function log(level: 'info' | 'error', msg: string, fields: Record<string, unknown> = {}): void {
  const stream = level === 'error' ? process.stderr : process.stdout;
  stream.write(`${JSON.stringify({ level, msg, ...fields })}\n`);
}

/** Reads a numeric variable; a bad value stops the process with a message naming it. */
function numberFromEnv(name: string, fallback?: number): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) {
    log('error', 'invalid configuration', { variable: name, value: raw, expected: 'a non-negative number' });
    process.exit(1);
  }
  return value;
}

/** SIM_KEYLESS=true: OpenAI-protocol calls need no key, as on a local model server. */
function keylessFromEnv(): boolean {
  const raw = process.env['SIM_KEYLESS']?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  log('error', 'invalid configuration', { variable: 'SIM_KEYLESS', value: raw, expected: 'true or false' });
  process.exit(1);
}

function optionsFromEnv(): SimulatorOptions {
  const port = numberFromEnv('SIM_PORT', 8081);
  if (port !== undefined && (!Number.isInteger(port) || port > 65_535)) {
    log('error', 'invalid configuration', { variable: 'SIM_PORT', value: process.env['SIM_PORT'], expected: 'a port number' });
    process.exit(1);
  }
  return {
    port,
    host: process.env['SIM_HOST'] || '127.0.0.1',
    latencyMs: numberFromEnv('SIM_LATENCY_MS'),
    tokensPerSecond: numberFromEnv('SIM_TOKENS_PER_SECOND'),
    keyless: keylessFromEnv(),
  };
}

async function main(): Promise<void> {
  const simulator = await startSimulator(optionsFromEnv());
  log('info', 'simulator listening', { url: simulator.url });
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    // A second signal while closing means "now": skip the graceful path.
    if (stopping) process.exit(1);
    stopping = true;
    simulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log('error', 'simulator close failed', { signal, error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // Started by `npm start` in a process group of its own: stop when the launcher goes away.
  if (process.env['SIM_STOP_ON_STDIN_END'] === '1') {
    process.stdin.on('end', () => stop('SIGTERM'));
    process.stdin.resume();
  }
}

main().catch((error: unknown) => {
  log('error', 'simulator failed to start', { error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
