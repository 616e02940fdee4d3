import { buildCall, COMMANDS, UsageError, type Call } from './admin-cli-commands';

function call(...argv: string[]): Call {
  const parsed = buildCall(argv);
  if (parsed.kind !== 'call') throw new Error(`expected a call, got help:\n${parsed.text}`);
  return parsed.call;
}

function refusal(...argv: string[]): string {
  try {
    buildCall(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
}

const ID = '0b6f3c52-8d0e-4c55-9d8b-1d2f3a4b5c6d';

describe('admin CLI commands', () => {
  it('keys: create, list, get, update, revoke', () => {
    expect(call('keys', 'create', '--name', 'ci', '--plan', 'pro', '--rpm', '50', '--tpm', 'null', '--team', ID, '--budget-usd', '2.5', '--budget-period', 'month', '--models', 'rosetta/gpt-4o-mini, rosetta/claude-haiku-4-5')).toEqual({
      method: 'POST',
      path: '/admin/keys',
      body: { name: 'ci', plan: 'pro', team_id: ID, rpm: 50, tpm: null, budget_usd: 2.5, budget_period: 'month', models: ['rosetta/gpt-4o-mini', 'rosetta/claude-haiku-4-5'] },
    });
    expect(call('keys', 'list')).toEqual({ method: 'GET', path: '/admin/keys' });
    expect(call('keys', 'get', ID)).toEqual({ method: 'GET', path: `/admin/keys/${ID}` });
    expect(call('keys', 'update', ID, '--plan', 'free', '--models', 'null', '--expires-at', 'null')).toEqual({
      method: 'PATCH',
      path: `/admin/keys/${ID}`,
      body: { plan: 'free', models: null, expires_at: null },
    });
    expect(call('keys', 'revoke', ID)).toEqual({ method: 'DELETE', path: `/admin/keys/${ID}` });
  });

  it('teams: create, list, get, update', () => {
    expect(call('teams', 'create', '--name', 'research', '--budget-usd', '100', '--budget-period', 'day')).toEqual({
      method: 'POST',
      path: '/admin/teams',
      body: { name: 'research', budget_usd: 100, budget_period: 'day' },
    });
    expect(call('teams', 'list')).toEqual({ method: 'GET', path: '/admin/teams' });
    expect(call('teams', 'get', ID)).toEqual({ method: 'GET', path: `/admin/teams/${ID}` });
    expect(call('teams', 'update', ID, '--budget-usd', 'null', '--budget-period', 'null')).toEqual({ method: 'PATCH', path: `/admin/teams/${ID}`, body: { budget_usd: null, budget_period: null } });
  });

  it('plans: set replaces the whole plan and needs both limits; update changes only what is given', () => {
    expect(call('plans', 'list')).toEqual({ method: 'GET', path: '/admin/plans' });
    expect(call('plans', 'set', 'team', '--rpm', '500', '--tpm', 'unlimited')).toEqual({ method: 'PUT', path: '/admin/plans/team', body: { rpm: 500, tpm: null } });
    expect(refusal('plans', 'set', 'free', '--rpm', '5')).toBe(
      'plans set replaces the whole plan and needs both --rpm and --tpm (missing: --tpm; a whole number, or null for unlimited); to change only what you gave: plans update free --rpm 5',
    );
    expect(call('plans', 'update', 'free', '--rpm', '5')).toEqual({ method: 'PATCH', path: '/admin/plans/free', body: { rpm: 5 } });
    expect(call('plans', 'update', 'free', '--tpm', 'null')).toEqual({ method: 'PATCH', path: '/admin/plans/free', body: { tpm: null } });
    expect(refusal('plans', 'update', 'free')).toBe('plans update needs --rpm and/or --tpm');
    expect(call('plans', 'delete', 'team')).toEqual({ method: 'DELETE', path: '/admin/plans/team' });
  });

  it('usage: group-by, dates, filters and CSV become query parameters', () => {
    expect(call('usage')).toEqual({ method: 'GET', path: '/admin/usage', csv: false });
    expect(call('usage', '--group-by', 'key,model', '--from', '2026-11-01', '--to', '2026-11-30', '--team', ID, '--csv')).toEqual({
      method: 'GET',
      path: `/admin/usage?group_by=key%2Cmodel&from=2026-11-01&to=2026-11-30&team_id=${ID}&format=csv`,
      csv: true,
    });
  });

  it('requests get: by either id, escaped into the path', () => {
    expect(call('requests', 'get', 'req_abc')).toEqual({ method: 'GET', path: '/admin/requests/req_abc' });
    expect(call('requests', 'get', 'trace/42')).toEqual({ method: 'GET', path: '/admin/requests/trace%2F42' });
  });

  it.each<[string[], string]>([
    [['frobnicate'], "unknown command 'frobnicate'"],
    [['keys'], 'keys needs an action'],
    [['keys', 'delete', ID], "unknown command 'keys delete'"],
    [['keys', 'create', '--plan', 'pro'], 'keys create needs --name and --plan'],
    [['keys', 'create', '--name', 'ci', '--plan', 'pro', '--rpm', '1.5'], "--rpm must be a whole number, or null for unlimited; got '1.5'"],
    [['keys', 'create', '--name', 'ci', '--plan', 'pro', '--budget-usd', '$5'], "--budget-usd must be an amount of US dollars such as 25 or 0.5, or null; got '$5'"],
    [['keys', 'create', '--name'], "keys create: option '--name' needs a value"],
    [['keys', 'update', ID], 'keys update needs at least one of --name, --plan, --team, --rpm, --tpm, --expires-at, --budget-usd, --budget-period, --models'],
    [['keys', 'get'], 'keys get needs the key id'],
    [['keys', 'get', ID, 'extra'], "keys get: unexpected argument 'extra'"],
    [['plans', 'set', 'free', '--rmp', '5'], "plans set: unknown option '--rmp'"],
    [['usage', '--csv=yes'], "usage: option '--csv' takes no value"],
  ])('refuses %j: %s', (argv, message) => {
    expect(refusal(...argv)).toBe(message);
  });

  it('prints help for everything, a resource, and each command', () => {
    for (const argv of [[], ['help'], ['--help'], ['keys', '--help'], ['plans', 'help']]) expect(buildCall(argv).kind).toBe('help');
    for (const command of COMMANDS) {
      const help = buildCall([...command.name.split(' '), '--help']);
      expect(help.kind).toBe('help');
      if (help.kind === 'help') {
        expect(help.text).toContain(`npm run admin -- ${command.name}`);
        for (const option of Object.keys(command.options)) expect(help.text).toContain(`--${option}`);
      }
    }
    const overview = buildCall(['--help']);
    if (overview.kind === 'help') for (const command of COMMANDS) expect(overview.text).toContain(command.name);
  });
});

describe('admin CLI: providers, requests and the audit log (issue 27)', () => {
  it('builds each call, the provider body named as a file for the CLI to read', () => {
    expect(call('providers', 'list')).toEqual({ method: 'GET', path: '/admin/providers' });
    expect(call('providers', 'set', 'my-vllm', '--file', 'vllm.yaml')).toEqual({ method: 'PUT', path: '/admin/providers/my-vllm', bodyFile: 'vllm.yaml' });
    expect(call('providers', 'delete', 'my-vllm')).toEqual({ method: 'DELETE', path: '/admin/providers/my-vllm' });
    expect(call('requests', 'list', '--status', 'error', '--limit', '20', '--key', ID)).toEqual({ method: 'GET', path: `/admin/requests?limit=20&key_id=${ID}&status=error` });
    expect(call('audit', 'list', '--action', 'key', '--before', 'c1')).toEqual({ method: 'GET', path: '/admin/audit?before=c1&action=key' });
  });

  it('refuses a provider without its file or slug', () => {
    expect(refusal('providers', 'set', 'my-vllm')).toBe('providers set needs --file');
    expect(refusal('providers', 'delete')).toBe('providers delete needs the provider slug');
  });
});
