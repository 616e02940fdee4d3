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
    expect(call('keys', 'update', ID, '--end-user-budget-usd', '0.5', '--budget-period', 'day')).toEqual({
      method: 'PATCH',
      path: `/admin/keys/${ID}`,
      body: { end_user_budget_usd: 0.5, budget_period: 'day' },
    });
    expect(call('keys', 'revoke', ID)).toEqual({ method: 'DELETE', path: `/admin/keys/${ID}` });
  });

  it('keys: the response cache and prompt caching, null inheriting the plan\'s (issue 29)', () => {
    expect(call('keys', 'create', '--name', 'agent', '--plan', 'pro', '--cache-mode', 'semantic', '--cache-ttl', '600', '--cache-similarity', '0.9', '--prompt-cache', 'auto')).toEqual({
      method: 'POST',
      path: '/admin/keys',
      body: { name: 'agent', plan: 'pro', cache: { mode: 'semantic', ttl_s: 600, similarity: 0.9 }, prompt_cache: 'auto' },
    });
    // TTL and similarity left out: the gateway fills its defaults (3600 s, 0.95).
    expect(call('keys', 'update', ID, '--cache-mode', 'exact')).toEqual({ method: 'PATCH', path: `/admin/keys/${ID}`, body: { cache: { mode: 'exact' } } });
    expect(call('keys', 'update', ID, '--cache-mode', 'null', '--prompt-cache', 'null')).toEqual({ method: 'PATCH', path: `/admin/keys/${ID}`, body: { cache: null, prompt_cache: null } });
    expect(call('keys', 'update', ID, '--prompt-cache', 'off')).toEqual({ method: 'PATCH', path: `/admin/keys/${ID}`, body: { prompt_cache: 'off' } });
    const help = buildCall(['keys', 'update', '--help']);
    expect(help.kind === 'help' && help.text).toContain(
      "  --cache-mode <off|exact|semantic|null>\n      response cache: exact answers the same request again at no cost, semantic a similar last message too (needs pgvector); null inherits the plan's (the key's setting wins over its plan's)",
    );
  });

  it('guardrails on keys, teams and plans: a JSON list, @file (read by the CLI), or null (issue 31)', () => {
    const checks = [{ check: 'pii', on: 'both', action: 'redact' }];
    expect(call('keys', 'create', '--name', 'g', '--plan', 'pro', '--guardrails', JSON.stringify(checks))).toEqual({ method: 'POST', path: '/admin/keys', body: { name: 'g', plan: 'pro', guardrails: checks } });
    expect(call('teams', 'update', ID, '--guardrails', 'null')).toEqual({ method: 'PATCH', path: `/admin/teams/${ID}`, body: { guardrails: null } });
    expect(call('plans', 'update', 'pro', '--guardrails', '@checks.yaml')).toEqual({ method: 'PATCH', path: '/admin/plans/pro', body: {}, guardrailsFile: 'checks.yaml' });
    expect(call('plans', 'set', 'pro', '--rpm', '1', '--tpm', 'null', '--guardrails', '[]')).toEqual({ method: 'PUT', path: '/admin/plans/pro', body: { rpm: 1, tpm: null, guardrails: [] } });
    expect(refusal('keys', 'update', ID, '--guardrails', '[{"check":')).toMatch(/^--guardrails must be a JSON list of checks, @<file> \(JSON or YAML\), or null/);
    expect(refusal('keys', 'update', ID, '--guardrails', '@')).toBe('--guardrails @<file> needs a file name, e.g. --guardrails @checks.json');
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
    expect(refusal('plans', 'update', 'free')).toBe('plans update needs at least one of --rpm, --tpm, --cache-mode, --cache-ttl, --cache-similarity, --prompt-cache, --guardrails');
    expect(call('plans', 'delete', 'team')).toEqual({ method: 'DELETE', path: '/admin/plans/team' });
  });

  it('plans: caching beside the limits, on set and on update (issue 29)', () => {
    expect(call('plans', 'set', 'agents', '--rpm', '600', '--tpm', 'null', '--cache-mode', 'exact', '--cache-ttl', '86400', '--prompt-cache', 'auto')).toEqual({
      method: 'PUT',
      path: '/admin/plans/agents',
      body: { rpm: 600, tpm: null, cache: { mode: 'exact', ttl_s: 86400 }, prompt_cache: 'auto' },
    });
    expect(call('plans', 'update', 'agents', '--cache-mode', 'off')).toEqual({ method: 'PATCH', path: '/admin/plans/agents', body: { cache: { mode: 'off' } } });
    expect(call('plans', 'update', 'agents', '--prompt-cache', 'off', '--cache-mode', 'null')).toEqual({ method: 'PATCH', path: '/admin/plans/agents', body: { cache: null, prompt_cache: 'off' } });
    expect(refusal('plans', 'set', 'agents', '--cache-mode', 'exact')).toBe(
      'plans set replaces the whole plan and needs both --rpm and --tpm (missing: --rpm, --tpm; a whole number, or null for unlimited); to change only what you gave: plans update agents --cache-mode exact',
    );
  });

  it('usage: group-by, dates, filters and CSV become query parameters', () => {
    expect(call('usage')).toEqual({ method: 'GET', path: '/admin/usage', csv: false });
    expect(call('usage', '--group-by', 'key,model', '--from', '2026-11-01', '--to', '2026-11-30', '--team', ID, '--csv')).toEqual({
      method: 'GET',
      path: `/admin/usage?group_by=key%2Cmodel&from=2026-11-01&to=2026-11-30&team_id=${ID}&format=csv`,
      csv: true,
    });
  });

  it('usage: a page of groups by --limit, the next by --cursor; --csv is every group', () => {
    expect(call('usage', '--limit', '50')).toEqual({ method: 'GET', path: '/admin/usage?limit=50', csv: false });
    expect(call('usage', '--cursor', 'eyJ2IjoxfQ.abc-_', '--limit', '10')).toEqual({ method: 'GET', path: '/admin/usage?limit=10&cursor=eyJ2IjoxfQ.abc-_', csv: false });
    expect(refusal('usage', '--csv', '--limit', '10')).toBe('usage --csv prints every group; --limit and --cursor page the JSON answer instead');
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
    [['keys', 'update', ID], 'keys update needs at least one of --name, --plan, --team, --rpm, --tpm, --expires-at, --budget-usd, --budget-period, --end-user-budget-usd, --models, --cache-mode, --cache-ttl, --cache-similarity, --prompt-cache, --guardrails'],
    [['keys', 'update', ID, '--cache-mode', 'fuzzy'], "--cache-mode must be off, exact or semantic, or null to inherit the plan's; got 'fuzzy'"],
    [['plans', 'update', 'free', '--cache-mode', 'on'], "--cache-mode must be off, exact or semantic, or null for off; got 'on'"],
    [['keys', 'update', ID, '--prompt-cache', 'on'], "--prompt-cache must be auto or off, or null to inherit the plan's; got 'on'"],
    [['keys', 'update', ID, '--cache-ttl', '600'], '--cache-ttl goes with --cache-mode exact or semantic (the cache setting is replaced whole), e.g. --cache-mode exact --cache-ttl 600'],
    [['plans', 'update', 'free', '--cache-mode', 'null', '--cache-similarity', '0.9'], '--cache-similarity goes with --cache-mode exact or semantic (the cache setting is replaced whole), e.g. --cache-mode exact --cache-ttl 600'],
    [['keys', 'update', ID, '--cache-mode', 'exact', '--cache-ttl', '1h'], "--cache-ttl must be a whole number of seconds, 1 to 2592000; got '1h'"],
    [['plans', 'set', 'free', '--rpm', '5', '--tpm', '5', '--cache-mode', 'semantic', '--cache-similarity', 'high'], "--cache-similarity must be a number from 0 to 1 such as 0.95; got 'high'"],
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

describe('admin CLI: alert webhooks (issue 31)', () => {
  it('adds, lists and removes a webhook', () => {
    expect(call('webhooks', 'add', '--url', 'https://hooks.example.com/rosetta', '--events', 'budget.threshold, spend.daily', '--secret', 'a-secret-of-sixteen+')).toEqual({
      method: 'POST',
      path: '/admin/webhooks',
      body: { url: 'https://hooks.example.com/rosetta', events: ['budget.threshold', 'spend.daily'], secret: 'a-secret-of-sixteen+' },
    });
    expect(call('webhooks', 'add', '--url', 'https://hooks.example.com/x', '--events', 'provider.circuit_open')).toEqual({
      method: 'POST',
      path: '/admin/webhooks',
      body: { url: 'https://hooks.example.com/x', events: ['provider.circuit_open'] },
    });
    expect(call('webhooks', 'list')).toEqual({ method: 'GET', path: '/admin/webhooks' });
    expect(call('webhooks', 'remove', ID)).toEqual({ method: 'DELETE', path: `/admin/webhooks/${ID}` });
  });

  it('refuses a webhook without its URL, events or id', () => {
    expect(refusal('webhooks', 'add', '--events', 'spend.daily')).toBe('webhooks add needs --url');
    expect(refusal('webhooks', 'add', '--url', 'https://hooks.example.com/x')).toBe('webhooks add needs --events, e.g. --events budget.threshold,spend.daily');
    expect(refusal('webhooks', 'remove')).toBe('webhooks remove needs the webhook id');
  });
});
