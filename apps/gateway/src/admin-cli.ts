/**
 * `npm run admin -- <resource> <action> [options]`: the admin API from a terminal.
 * Talks HTTP to a running gateway (ROSETTA_URL, default http://127.0.0.1:$ADMIN_PORT or $PORT)
 * with ADMIN_TOKEN, so it works the same against the embedded database and a shared PostgreSQL.
 * The commands themselves are in admin-cli-commands.ts.
 */
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { buildCall, UsageError, type Call } from './admin-cli-commands';

export { buildCall } from './admin-cli-commands';

interface Output {
  out(text: string): void;
  err(text: string): void;
}

const STDIO: Output = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };

export async function run(argv: readonly string[], env: NodeJS.ProcessEnv, io: Output = STDIO): Promise<number> {
  let call: Call;
  try {
    const parsed = buildCall(argv);
    if (parsed.kind === 'help') {
      io.out(`${parsed.text}\n`);
      return 0;
    }
    call = parsed.call;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.err(`error: ${error.message}\n\n${error.help}\n`);
    return 2;
  }
  if (call.bodyFile !== undefined) {
    try {
      call = { ...call, body: parseYaml(readFileSync(call.bodyFile, 'utf8')) as unknown };
    } catch (error) {
      io.err(`error: cannot read ${call.bodyFile}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  if (call.guardrailsFile !== undefined) {
    try {
      call = { ...call, body: { ...(call.body as Record<string, unknown>), guardrails: parseYaml(readFileSync(call.guardrailsFile, 'utf8')) as unknown } };
    } catch (error) {
      io.err(`error: cannot read ${call.guardrailsFile}: ${(error as Error).message}\n`);
      return 2;
    }
  }
  const token = env['ADMIN_TOKEN'];
  if (!token) {
    io.err("error: ADMIN_TOKEN is not set: use the token printed at the gateway's first start, or the one you configured.\n");
    return 2;
  }
  const base = (env['ROSETTA_URL'] || `http://127.0.0.1:${env['ADMIN_PORT'] || env['PORT'] || 8080}`).replace(/\/+$/, '');
  let response: Response;
  try {
    response = await fetch(`${base}${call.path}`, {
      method: call.method,
      headers: { authorization: `Bearer ${token}`, ...(call.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    io.err(`error: cannot reach the gateway at ${base} (${cause?.code ?? cause?.message ?? (error as Error).message}); is it running? set ROSETTA_URL if it listens elsewhere\n`);
    return 1;
  }
  const text = await response.text();
  if (!response.ok) {
    io.err(`error: ${describeFailure(response.status, text)}\n`);
    return 1;
  }
  if (call.csv) {
    io.out(text);
    return 0;
  }
  io.out(`${pretty(text)}\n`);
  return 0;
}

/** `HTTP 409: Plan 'team' is in use by 2 keys; ... (param: name)` from the gateway's error body. */
function describeFailure(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: string; param?: string | null } };
    if (body.error?.message) return `HTTP ${status}: ${body.error.message}${body.error.param ? ` (param: ${body.error.param})` : ''}`;
  } catch {
    // not JSON: show it as it came
  }
  return `HTTP ${status}: ${text.trim() || '(no body)'}`;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

if (require.main === module) {
  void run(process.argv.slice(2), process.env).then((code) => process.exit(code));
}
