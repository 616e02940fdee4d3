import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

const DECIMAL = /^\d+(\.\d+)?$/;

/** Plans (PUT/PATCH/DELETE) and usage reports over two replicas sharing PostgreSQL and Redis. */
describe('admin API: plans and usage reports', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let a: GatewayProcess;
  let b: GatewayProcess;

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, OPENAI_API_KEY: 'sk-operator-000000000000' };
    [a, b] = await Promise.all([startGateway(env), startGateway(env)]);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await sim?.close();
    await db?.drop();
  });

  const ask = (gateway: GatewayProcess, key: string, content = 'hi') =>
    fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content }], max_tokens: 16 }),
    });

  /** Polls until `check` holds (each replica applies a change within a second): no fixed sleeps. */
  async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
    for (let i = 0; i < 100; i++) {
      if (await check()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never happened: ${what}`);
  }

  const ledgerRows = async (column: 'api_key_id' | 'team_id', id: string): Promise<number> =>
    (await query<{ n: number }>(db.url, `SELECT count(*)::int AS n FROM request_log WHERE ${column} = $1`, [id]))[0]!.n;

  describe('plans', () => {
    it('PUT replaces a plan whole: both limits required, null for unlimited, messages that name the problem', async () => {
      const missing = await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 600 });
      expect(missing).toEqual({ status: 400, body: expect.objectContaining({ error: expect.objectContaining({ type: 'invalid_request_error', param: 'tpm', message: "Missing required field 'tpm'" }) }) });
      const fraction = await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 600.5, tpm: null });
      expect(fraction.body.error).toEqual(expect.objectContaining({ param: 'rpm', message: "Invalid 'rpm': must be a whole number" }));
      const text = await adminCall(a, 'PUT', '/admin/plans/team', { rpm: '600', tpm: null });
      expect(text.body.error.message).toBe("Invalid 'rpm': must be a whole number");
      const typo = await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 600, tpm: null, burst: 10 });
      expect(typo.body.error).toEqual(expect.objectContaining({ param: 'burst', message: "Unknown field 'burst'" }));

      expect(await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 600, tpm: 60000 })).toEqual({ status: 201, body: { name: 'team', rpm: 600, tpm: 60000, cache: null, prompt_cache: null, guardrails: null } });
      expect(await adminCall(a, 'PUT', '/admin/plans/team', { rpm: 700, tpm: null })).toEqual({ status: 200, body: { name: 'team', rpm: 700, tpm: null, cache: null, prompt_cache: null, guardrails: null } });
      expect(await adminCall(b, 'GET', '/admin/plans/team')).toEqual({ status: 200, body: { name: 'team', rpm: 700, tpm: null, cache: null, prompt_cache: null, guardrails: null } });
    });

    it('PATCH changes only the limits given, on every replica', async () => {
      expect((await adminCall(a, 'PUT', '/admin/plans/patchy', { rpm: 50, tpm: 5000 })).status).toBe(201);
      await eventually(async () => (await adminCall(b, 'POST', '/admin/keys', { name: 'probe', plan: 'patchy' })).status === 201, 'b knows plan patchy');
      const { key } = await createKey(a, 'patchy');

      expect(await adminCall(a, 'PATCH', '/admin/plans/patchy', { rpm: 7 })).toEqual({ status: 200, body: { name: 'patchy', rpm: 7, tpm: 5000, cache: null, prompt_cache: null, guardrails: null } });
      // b's plan cache reloads from the bus: its rate-limit headers show the new rpm and the old tpm.
      await eventually(async () => (await ask(b, key)).headers.get('x-ratelimit-limit-requests') === '7', 'b applies rpm 7');
      expect((await ask(b, key)).headers.get('x-ratelimit-limit-tokens')).toBe('5000');

      expect(await adminCall(a, 'PATCH', '/admin/plans/patchy', { tpm: null })).toEqual({ status: 200, body: { name: 'patchy', rpm: 7, tpm: null, cache: null, prompt_cache: null, guardrails: null } });
      const nothing = await adminCall(a, 'PATCH', '/admin/plans/patchy', {});
      expect(nothing).toEqual({ status: 400, body: expect.objectContaining({ error: expect.objectContaining({ message: expect.stringContaining("Nothing to change: give 'rpm' and/or 'tpm'") }) }) });
      expect((await adminCall(a, 'PATCH', '/admin/plans/patchy', { rmp: 5 })).body.error).toEqual(expect.objectContaining({ param: 'rmp', message: "Unknown field 'rmp'" }));
      expect((await adminCall(a, 'PATCH', '/admin/plans/patchy', { tpm: -5 })).body.error.message).toBe("Invalid 'tpm': must not be less than 0");

      const unknown = await adminCall(a, 'PATCH', '/admin/plans/no-such-plan', { rpm: 1 });
      expect(unknown).toEqual({ status: 404, body: expect.objectContaining({ error: expect.objectContaining({ type: 'not_found_error', message: "Plan 'no-such-plan' not found; see GET /admin/plans" }) }) });
    });

    it('DELETE refuses with 409 while keys use the plan, then deletes it once they have moved', async () => {
      expect((await adminCall(a, 'PUT', '/admin/plans/doomed', { rpm: 10, tpm: null })).status).toBe(201);
      const first = await createKey(a, 'doomed');
      const second = await createKey(a, 'doomed');
      expect((await adminCall(a, 'DELETE', `/admin/keys/${second.id}`)).status).toBe(200);

      const refused = await adminCall(b, 'DELETE', '/admin/plans/doomed');
      expect(refused.status).toBe(409);
      expect(refused.body.error).toEqual(
        expect.objectContaining({
          type: 'invalid_request_error',
          param: 'name',
          message: 'Plan \'doomed\' is in use by 2 keys (1 of them revoked); move them to another plan first (PATCH /admin/keys/{id} {"plan": "..."})',
        }),
      );
      expect((await adminCall(a, 'GET', '/admin/plans/doomed')).status).toBe(200);

      for (const { id } of [first, second]) expect((await adminCall(a, 'PATCH', `/admin/keys/${id}`, { plan: 'free' })).status).toBe(200);
      expect(await adminCall(b, 'DELETE', '/admin/plans/doomed')).toEqual({ status: 200, body: { name: 'doomed', rpm: 10, tpm: null, cache: null, prompt_cache: null, guardrails: null } });
      expect((await adminCall(a, 'GET', '/admin/plans')).body.map((p: { name: string }) => p.name)).not.toContain('doomed');
      expect((await adminCall(a, 'DELETE', '/admin/plans/doomed')).status).toBe(404);
      // Every replica forgets it: a new key on it is refused everywhere.
      await eventually(async () => (await adminCall(a, 'POST', '/admin/keys', { name: 'late', plan: 'doomed' })).status === 400, 'a forgets doomed');
      expect((await adminCall(b, 'POST', '/admin/keys', { name: 'late', plan: 'doomed' })).status).toBe(400);
    });
  });

  describe('usage reports', () => {
    let team: { id: string; name: string };
    let alpha: { id: string; key: string };
    let beta: { id: string; key: string };
    const requestIds: string[] = [];

    beforeAll(async () => {
      const created = await adminCall(a, 'POST', '/admin/teams', { name: `Acme, "Research" ${Date.now()}` });
      expect(created.status).toBe(201);
      team = created.body;
      alpha = await createKey(a, 'pro', { name: 'alpha', team_id: team.id });
      beta = await createKey(a, 'pro', { name: '=beta', team_id: team.id });
      const responses = await Promise.all([ask(a, alpha.key), ask(b, alpha.key), ask(a, alpha.key), ask(b, beta.key)]);
      for (const r of responses) {
        expect(r.status).toBe(200);
        requestIds.push(r.headers.get('x-request-id')!);
      }
      await eventually(async () => (await ledgerRows('team_id', team.id)) === 4, 'all four rows written');
    });

    it('groups by key with key names, decimal-string costs that match the ledger, and totals', async () => {
      const report = await adminCall(a, 'GET', `/admin/usage?group_by=key&team_id=${team.id}`);
      expect(report.status).toBe(200);
      const ledger = await query<{ api_key_id: string; cost: string }>(
        db.url,
        'SELECT api_key_id, round(sum(cost_usd), 9)::text AS cost FROM request_log WHERE team_id = $1 GROUP BY 1',
        [team.id],
      );
      const costOf = (id: string): string => ledger.find((row) => row.api_key_id === id)!.cost.replace(/0+$/, '').replace(/\.$/, '');
      expect(report.body.group_by).toEqual(['key']);
      // Groups in a fixed order (decision 0034): by key id here.
      expect(report.body.data).toEqual(byId([
        { api_key_id: alpha.id, key_name: 'alpha', requests: 3, errors: 0, input_tokens: expect.any(Number), output_tokens: expect.any(Number), cached_tokens: 0, reasoning_tokens: 0, cost_usd: costOf(alpha.id), cache_hits: 0, saved_usd: '0' },
        { api_key_id: beta.id, key_name: '=beta', requests: 1, errors: 0, input_tokens: expect.any(Number), output_tokens: expect.any(Number), cached_tokens: 0, reasoning_tokens: 0, cost_usd: costOf(beta.id), cache_hits: 0, saved_usd: '0' },
      ]));
      expect({ has_more: report.body.has_more, next_cursor: report.body.next_cursor }).toEqual({ has_more: false, next_cursor: null });
      for (const row of report.body.data) expect(row.cost_usd).toMatch(DECIMAL);
      expect(report.body.totals).toEqual(expect.objectContaining({ requests: 4, errors: 0 }));
      expect(report.body.totals.cost_usd).toMatch(DECIMAL);
      expect(Number(report.body.totals.cost_usd)).toBeCloseTo(Number(costOf(alpha.id)) + Number(costOf(beta.id)), 9);
    });

    it('groups by team, model and day, and filters by key', async () => {
      const byTeam = await adminCall(a, 'GET', `/admin/usage?group_by=team&team_id=${team.id}`);
      expect(byTeam.body.data).toEqual([expect.objectContaining({ team_id: team.id, team_name: team.name, requests: 4 })]);
      const today = new Date().toISOString().slice(0, 10);
      const byModelDay = await adminCall(a, 'GET', `/admin/usage?group_by=model,day&key_id=${alpha.id}`);
      expect(byModelDay.body.data).toEqual([expect.objectContaining({ served_model: 'rosetta/gpt-4o-mini', day: today, requests: 3 })]);
      expect(Object.keys(byModelDay.body.data[0]).slice(0, 2)).toEqual(['served_model', 'day']);
      const byDay = await adminCall(a, 'GET', `/admin/usage?group_by=day&from=${today}&to=${today}&key_id=${beta.id}`);
      expect(byDay.body.data).toEqual([expect.objectContaining({ day: today, requests: 1 })]);
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      expect((await adminCall(a, 'GET', `/admin/usage?to=${yesterday}&key_id=${beta.id}`)).body.data).toEqual([]);
    });

    it('exports CSV with a header row, a file name, quoted and defused names', async () => {
      const res = await fetch(`${a.url}/admin/usage?group_by=team,key&team_id=${team.id}&format=csv`, { headers: { authorization: 'Bearer test-admin-token-0123456789abcdef' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="rosetta-usage-team-key-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = (await res.text()).split('\r\n');
      expect(lines[0]).toBe('team_id,team_name,api_key_id,key_name,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd');
      expect(lines).toHaveLength(4); // header, two keys, and the final line break
      expect(lines[3]).toBe('');
      const quotedTeam = `"${team.name.replace(/"/g, '""')}"`;
      const [first, second] = alpha.id < beta.id ? [1, 2] : [2, 1]; // by team, then key id
      expect(lines[first]).toMatch(new RegExp(`^${team.id},${escape(quotedTeam)},${alpha.id},alpha,3,0,\\d+,\\d+,0,0,\\d+\\.\\d+,0,0$`));
      expect(lines[second]).toMatch(new RegExp(`^${team.id},${escape(quotedTeam)},${beta.id},'=beta,1,0,\\d+,\\d+,0,0,\\d+\\.\\d+,0,0$`));
    });

    it('refuses bad parameters with a 400 naming them', async () => {
      const cases: Array<[string, string, string]> = [
        ['group_by=week', 'group_by', "Invalid 'group_by': 'week' is not one of key, team, model, provider, day, hour, end_user, tag (several may be given, comma separated)"],
        ['from=last-tuesday', 'from', "Invalid 'from': must be an ISO 8601 date (2026-11-24) or date-time (2026-11-24T09:30:00Z), got 'last-tuesday'"],
        ['from=2026-11-24&to=2026-11-01', 'from', "Invalid 'from': must be before 'to' (from 2026-11-24T00:00:00.000Z, to 2026-11-02T00:00:00.000Z)"],
        ['format=xml', 'format', "Invalid 'format': must be json or csv, got 'xml'"],
        ['team_id=research', 'team_id', "Invalid 'team_id': must be a team id (see GET /admin/teams), got 'research'"],
        ['group_by=key&group_by=team', 'group_by', "Invalid 'group_by': give it once, as a single value"],
      ];
      for (const [search, param, message] of cases) {
        const res = await adminCall(a, 'GET', `/admin/usage?${search}`);
        expect({ search, status: res.status, error: res.body.error }).toEqual({ search, status: 400, error: expect.objectContaining({ type: 'invalid_request_error', param, message }) });
      }
    });

    it('looks a request up by id on any replica, with names and a decimal-string cost; an unknown id is a 404', async () => {
      for (const id of requestIds) {
        const row = await adminCall(id === requestIds[0] ? b : a, 'GET', `/admin/requests/${id}`);
        expect(row.status).toBe(200);
        expect(row.body).toEqual(expect.objectContaining({ request_id: id, team_id: team.id, team_name: team.name, cost_usd: expect.stringMatching(DECIMAL) }));
        expect(['alpha', '=beta']).toContain(row.body.key_name);
      }
      // Just answered by b, its row perhaps still in b's batch: a asks every replica to write now.
      const fresh = await fetch(`${b.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${beta.key}`, 'content-type': 'application/json', 'x-request-id': `support-${Date.now()}` },
        body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 }),
      });
      expect(fresh.status).toBe(200);
      const byServerId = await adminCall(a, 'GET', `/admin/requests/${fresh.headers.get('x-request-id')}`);
      expect(byServerId.body).toEqual(expect.objectContaining({ request_id: fresh.headers.get('x-request-id'), key_name: '=beta', cost_usd: expect.stringMatching(DECIMAL) }));
      const byClientId = await adminCall(a, 'GET', `/admin/requests/${fresh.headers.get('x-client-request-id')}`);
      expect(byClientId.body).toEqual(byServerId.body);

      const missing = await adminCall(a, 'GET', '/admin/requests/req_AAAAAAAAAAAAAAAA');
      expect(missing.status).toBe(404);
      expect(missing.body.error.type).toBe('not_found_error');
      expect((await adminCall(a, 'GET', '/admin/requests/some-client-id-nobody-sent')).status).toBe(404);
    });
  });
});

function byId<T extends { api_key_id: string }>(rows: T[]): T[] {
  return [...rows].sort((x, y) => (x.api_key_id < y.api_key_id ? -1 : 1));
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
