/**
 * `npm run admin -- <resource> <action> [options]`: the admin API from a terminal.
 * Talks HTTP to a running gateway (ROSETTA_URL, default http://127.0.0.1:$PORT) with ADMIN_TOKEN,
 * so it works the same against the embedded database and a shared PostgreSQL.
 */
import { parseArgs } from 'node:util';

const USAGE = `usage:
  npm run admin -- keys create --name <name> --plan <plan> [--rpm N] [--tpm N] [--expires-at ISO]
  npm run admin -- keys list
  npm run admin -- keys revoke <id>
  npm run admin -- plans list
  npm run admin -- plans set <name> --rpm <N|null> --tpm <N|null>
environment: ADMIN_TOKEN (required), ROSETTA_URL (default http://127.0.0.1:$PORT or :8080)`;

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

function limit(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'null' || value === 'unlimited') return null;
  if (!/^\d+$/.test(value)) throw new Error(`expected a whole number or 'null', got '${value}'`);
  return Number(value);
}

export function buildCall(argv: string[]): Call {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, plan: { type: 'string' }, rpm: { type: 'string' }, tpm: { type: 'string' }, 'expires-at': { type: 'string' } },
  });
  const [resource, action, target] = positionals;
  const route = `${resource ?? ''} ${action ?? ''}`;
  switch (route) {
    case 'keys create':
      if (!values.name || !values.plan) throw new Error('keys create needs --name and --plan');
      return {
        method: 'POST',
        path: '/admin/keys',
        body: { name: values.name, plan: values.plan, rpm: limit(values.rpm), tpm: limit(values.tpm), expires_at: values['expires-at'] },
      };
    case 'keys list':
      return { method: 'GET', path: '/admin/keys' };
    case 'keys revoke':
      if (!target) throw new Error('keys revoke needs the key id');
      return { method: 'DELETE', path: `/admin/keys/${encodeURIComponent(target)}` };
    case 'plans list':
      return { method: 'GET', path: '/admin/plans' };
    case 'plans set':
      if (!target) throw new Error('plans set needs the plan name');
      return { method: 'PUT', path: `/admin/plans/${encodeURIComponent(target)}`, body: { rpm: limit(values.rpm) ?? null, tpm: limit(values.tpm) ?? null } };
    default:
      throw new Error(`unknown command '${route.trim()}'`);
  }
}

async function main(): Promise<number> {
  let call: Call;
  try {
    call = buildCall(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const token = process.env['ADMIN_TOKEN'];
  if (!token) {
    process.stderr.write(`ADMIN_TOKEN is not set: use the token printed at the gateway's first start, or the one you configured.\n`);
    return 2;
  }
  const base = (process.env['ROSETTA_URL'] ?? `http://127.0.0.1:${process.env['PORT'] ?? 8080}`).replace(/\/+$/, '');
  const response = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  }).catch((error: Error) => {
    process.stderr.write(`cannot reach the gateway at ${base}: ${error.message}\n`);
    return undefined;
  });
  if (!response) return 1;
  const text = await response.text();
  let out = text;
  try {
    out = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: print as is
  }
  (response.ok ? process.stdout : process.stderr).write(`${out}\n`);
  return response.ok ? 0 : 1;
}

if (require.main === module) {
  void main().then((code) => process.exit(code));
}
