import OpenAI from 'openai';
import type { BrowserContext, Page } from 'playwright-core';
import { hitRate, usd } from '../apps/dashboard/src/format';
import { launchBrowser, screenshot, screenshotOf, type TestBrowser } from './support/browser';
import { adminCall, startGateway, TEST_ADMIN_TOKEN } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';
import { query } from './support/services';

/**
 * The dashboard in a real browser (Debian's Chromium, driven by playwright-core) against the
 * compiled gateway, PostgreSQL and the simulator: sign in, issue a key and use it with the
 * official OpenAI SDK, watch its usage, look a request up, add a provider, revoke the key, read the
 * audit log. The steps build on each other, as an operator's session would. Screenshots of every
 * page go to test-output/screenshots/.
 */
describe('the dashboard in a browser', () => {
  let stack: Stack;
  let chromium: TestBrowser;
  let context: BrowserContext;
  let page: Page;
  let teamId: string;
  let secret: string;
  let requestId: string;
  let cacheSecret: string;

  const url = (path = '/dashboard'): string => `${stack.gateway.url}${path}`;
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  const sdk = (key: string) => new OpenAI({ apiKey: key, baseURL: url('/v1'), maxRetries: 0 });
  const sessionCookie = async () => (await context.cookies(url())).find((c) => c.name === 'rosetta_session');
  const withCookie = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) => {
    const cookie = await sessionCookie();
    const res = await fetch(url(path), { method, headers: { cookie: `rosetta_session=${cookie?.value}`, 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  beforeAll(async () => {
    // The alerts step adds a webhook on loopback, which only WEBHOOK_ALLOW_HOSTS allows.
    [stack, chromium] = await Promise.all([startStack({ WEBHOOK_ALLOW_HOSTS: '127.0.0.1' }), launchBrowser()]);
    teamId = (await adminCall(stack.gateway, 'POST', '/admin/teams', { name: 'research', budget_usd: 50, budget_period: 'month' })).body.id;
    context = await chromium.context();
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await stack?.stop();
  });

  it('refuses a wrong admin token in words, and signs in with the right one without keeping it', async () => {
    await page.goto(url());
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await screenshot(page, 'sign-in');
    await page.getByLabel('Admin token').fill('not-the-admin-token-000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('Invalid admin token');
    expect(await sessionCookie()).toBeUndefined();

    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.map((c) => ({ name: c.name, httpOnly: c.httpOnly, sameSite: c.sameSite, path: c.path }))).toEqual([{ name: 'rosetta_session', httpOnly: true, sameSite: 'Strict', path: '/' }]);
    expect(cookies[0]!.value).not.toContain(TEST_ADMIN_TOKEN);
    // A string is evaluated in the page (this file is compiled without the DOM's types).
    const storage = await page.evaluate<string>('JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie, url: location.href })');
    expect(storage).not.toContain(TEST_ADMIN_TOKEN);
    expect(JSON.parse(storage)).toMatchObject({ local: {}, session: {}, cookie: '' });
    // The stack's own key, issued with the bearer token before the browser came.
    await page.locator('tr', { has: page.getByText('test-enterprise', { exact: true }) }).waitFor();
  });

  it("creates a key (the server's message shown beside a bad field), shows the secret once, and the key works with the OpenAI SDK", async () => {
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('ci-bot');
    await page.getByLabel('Plan', { exact: true }).selectOption('pro');
    await page.getByLabel('Team', { exact: true }).selectOption(teamId);
    await page.getByLabel('Budget (USD)').fill('lots');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const fieldError = page.locator('#new-key-budget-error');
    await fieldError.waitFor();
    await expect(fieldError.textContent()).resolves.toBe("Invalid 'budget_usd': must be a number of US dollars");
    await screenshot(page, 'keys-create-invalid');

    await page.getByLabel('Budget (USD)').fill('5');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    secret = (await page.getByTestId('new-secret').textContent())!;
    expect(secret).toMatch(/^rsk_[A-Za-z0-9]{12}_[A-Za-z0-9]{40}$/);
    // Where to send requests: the dashboard is on the data plane's own port here.
    await expect(page.getByTestId('base-url-openai').textContent()).resolves.toBe(url('/v1'));
    await screenshot(page, 'keys-secret-once');

    const { data, response } = await sdk(secret).chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'Hello from the dashboard test' }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe('Simulated reply from gpt-4o-mini: Hello from the dashboard test');
    requestId = response.headers.get('x-request-id')!;

    await page.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    const row = page.locator('tr', { has: page.getByText('ci-bot', { exact: true }) });
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);
    await row.getByText('research').waitFor();
    await row.getByText('of $5.00 per month').waitFor();
    const listed = await adminCall(stack.gateway, 'GET', '/admin/keys');
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(-40));
    await screenshot(page, 'keys');
  });

  it("changes a key's plan and limits from the page", async () => {
    const row = page.locator('tr', { has: page.getByText('ci-bot', { exact: true }) });
    await row.getByRole('button', { name: 'Edit ci-bot' }).click();
    const form = page.getByRole('form', { name: 'Edit key ci-bot' });
    await form.getByLabel('Requests per minute').fill('2.5');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.field-error', { hasText: "Invalid 'rpm': must be a whole number" }).waitFor();
    await form.getByLabel('Requests per minute').fill('30');
    await form.getByLabel('Plan', { exact: true }).selectOption('free');
    await form.getByRole('button', { name: 'Save' }).click();
    await row.getByText('(30 rpm, plan tpm)').waitFor();
    await expect(row.locator('td[data-label="Plan"]').textContent()).resolves.toBe('free (30 rpm, plan tpm)');
    const key = (await adminCall(stack.gateway, 'GET', '/admin/keys')).body.find((k: any) => k.name === 'ci-bot');
    expect(key).toMatchObject({ plan: 'free', rpm: 30, tpm: null, budget_usd: '5', team_id: teamId });
  });

  it('adds an OpenAI-compatible provider from the page, and the key can call its model at once', async () => {
    await nav('Providers').click();
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Slug').fill('local-vllm');
    await page.getByLabel('Base URL').fill(`${stack.sim.url}/v1`);
    await page.getByLabel('API key').fill('sk-local-vllm-000');
    await page.getByLabel('Model id').fill('rosetta/local-llama');
    await page.getByLabel('Upstream model').fill('llama-local');
    // A per-token habit in the per-million field is refused beside the field, not billed (issue 27).
    await page.getByLabel('Input $ / M tokens').fill('0.0000002');
    await page.getByLabel('Output $ / M tokens').fill('0.6');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByText('endpoints[0].usd_per_million_tokens.prompt: 0.0000002 USD per million tokens, below any provider').first().waitFor();
    await page.getByLabel('Input $ / M tokens').fill('0.2');
    await page.getByRole('button', { name: 'Add provider' }).click();
    const section = page.getByRole('region', { name: 'Provider local-vllm' });
    await section.waitFor();
    await section.getByText(`openai · ${stack.sim.url}/v1`).waitFor();

    const reply = await sdk(secret).chat.completions.create({ model: 'rosetta/local-llama', messages: [{ role: 'user', content: 'via the new provider' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from llama-local: via the new provider');
    expect(stack.sim.requests().at(-1)).toMatchObject({ headers: expect.objectContaining({ authorization: 'Bearer sk-local-vllm-000' }) });
    const stored = (await adminCall(stack.gateway, 'GET', '/admin/providers')).body.find((p: any) => p.slug === 'local-vllm');
    expect(stored.endpoints[0]).toMatchObject({ usd_per_million_tokens: { prompt: '0.2', completion: '0.6' }, pricing: { prompt: '0.0000002', completion: '0.0000006' } });
    await page.reload();
    const endpoint = page.getByRole('region', { name: 'Provider local-vllm' }).locator('tr', { hasText: 'rosetta/local-llama' });
    await endpoint.getByText('100%').waitFor();
    await endpoint.getByText('1 call', { exact: true }).waitFor();
    // A provider without a key (the catalog's groq: the stack sets no GROQ key) is not called: its endpoints say so, not "Operational".
    const idle = page.getByRole('region', { name: 'Provider groq' });
    await idle.getByText('No key: not called').waitFor();
    expect(await idle.locator('td[data-label="Status"]').count()).toBeGreaterThan(0);
    expect(new Set(await idle.locator('td[data-label="Status"]').allTextContents())).toEqual(new Set(['Not called (no key)']));
    await screenshot(page, 'providers');
  });

  it('creates a team with a budget, shows budgets with their spend, and the plans with their limits', async () => {
    await nav('Teams').click();
    await page.locator('tr', { hasText: 'research' }).getByText('of $50.00 per month').waitFor();
    await page.getByRole('button', { name: 'New team' }).click();
    await page.getByLabel('Team name').fill('research');
    await page.getByRole('button', { name: 'Create team' }).click();
    await expect(page.locator('.form-error').textContent()).resolves.toBe("A team named 'research' exists already");
    await page.getByLabel('Team name').fill('support');
    await page.getByLabel('Team budget (USD)').fill('10');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.locator('tr', { hasText: 'support' }).getByText('$0 of $10.00 per month').waitFor();
    await screenshot(page, 'teams');
    await nav('Plans').click();
    const pro = page.locator('tr', { has: page.getByRole('rowheader', { name: 'pro' }) });
    await pro.waitFor();
    // The count of keys on each plan comes from a second request: "…" until it is in.
    await pro.getByText('…').waitFor({ state: 'detached' });
    expect(await pro.locator('td').allTextContents()).toEqual(['1,000', '100,000', 'Off', 'Off', '0', 'EditDelete']);
    await screenshot(page, 'plans');
  });

  it('shows the usage: totals, a chart, and a table with the key by name', async () => {
    await nav('Usage').click();
    const spenders = page.getByRole('region', { name: 'Top spenders (keys)' });
    await spenders.locator('tr', { hasText: 'ci-bot' }).waitFor();
    await expect(spenders.locator('tbody tr').first().locator('th').textContent()).resolves.toBe('ci-bot');
    await expect(spenders.locator('tbody tr').first().locator('td').first().textContent()).resolves.toBe('2');
    await expect(page.locator('.totals').getByText('Requests').locator('..').locator('dd').textContent()).resolves.toBe('2');
    await page.locator('figure', { hasText: 'Cost (USD)' }).locator('canvas').first().waitFor();
    await page.getByRole('region', { name: 'By model' }).getByText('rosetta/local-llama').waitFor();
    await page.getByRole('region', { name: 'By provider' }).getByText('local-vllm').waitFor();
    const csv = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const exported = await fetch(url(csv!), { headers: { cookie: `rosetta_session=${(await sessionCookie())!.value}` } });
    expect(exported.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect((await exported.text()).split('\r\n')[0]).toBe('day,api_key_id,key_name,served_model,requests,errors,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost_usd,cache_hits,saved_usd');
    await screenshot(page, 'usage');
  });

  it('lists recent requests: the key\'s request is there, and opens its details', async () => {
    await nav('Requests').click();
    const recent = page.getByRole('region', { name: 'Recent requests' });
    const row = recent.locator('tr', { has: page.getByRole('button', { name: `Open request ${requestId}` }) });
    await row.waitFor();
    await expect(row.locator('td[data-label="Key"]').textContent()).resolves.toBe('ci-bot');
    await expect(row.locator('td[data-label="Status"]').textContent()).resolves.toBe('200');
    // Newest first: the request to the new provider came after it.
    await expect(recent.locator('tbody tr').first().locator('td[data-label="Model"]').textContent()).resolves.toMatch(/^rosetta\/local-llama/);
    await row.getByRole('button', { name: `Open request ${requestId}` }).click();
    const details = page.getByRole('region', { name: 'Request details' });
    await details.getByRole('heading', { name: `Request ${requestId}` }).waitFor();
    const field = (label: string) => details.locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
    await expect(field('Key').textContent()).resolves.toBe('ci-bot');
    await expect(field('Served model').textContent()).resolves.toBe('rosetta/gpt-4o-mini');

    // Filters: errors only (none yet), then one model's requests.
    await recent.getByLabel('Errors only').check();
    await recent.getByText('No requests match these filters.').waitFor();
    await recent.getByLabel('Errors only').uncheck();
    await recent.getByLabel('Model').selectOption('rosetta/local-llama');
    // The filtered list is in when no other model's row is left and its one row is shown (the
    // list may be empty for a moment while it reloads).
    await recent.locator('tbody tr').filter({ hasNotText: 'rosetta/local-llama' }).first().waitFor({ state: 'detached' });
    await recent.locator('tbody tr').filter({ hasText: 'rosetta/local-llama' }).first().waitFor();
    expect(await recent.locator('tbody tr').count()).toBe(1);
    await recent.getByLabel('Model').selectOption('');
    await row.waitFor();
    await page.evaluate('scrollTo(0, 0)'); // opening a row scrolled to its details; the screenshot shows the whole page from the top
    await screenshot(page, 'requests-list');
  });

  it('looks a request up by its id: served model, provider, tokens, cost, latency', async () => {
    await nav('Requests').click();
    await page.getByLabel('Request ID').fill(requestId);
    await page.getByRole('button', { name: 'Look up' }).click();
    const details = page.getByRole('region', { name: 'Request details' });
    await details.waitFor();
    const field = (label: string) => details.locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
    await expect(field('Served model').textContent()).resolves.toBe('rosetta/gpt-4o-mini');
    await expect(field('Provider').textContent()).resolves.toBe('openai');
    await expect(field('Key').textContent()).resolves.toBe('ci-bot');
    await expect(field('Team').textContent()).resolves.toBe('research');
    await expect(field('Attempts').textContent()).resolves.toBe('1');
    await expect(field('Status').textContent()).resolves.toBe('200');
    await screenshot(page, 'requests');

    await page.getByLabel('Request ID').fill('req_doesnotexist000000');
    await page.getByRole('button', { name: 'Look up' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain("Request 'req_doesnotexist000000' not found");
  });

  it("explains rosetta/auto's choice for a pasted prompt, with signals and candidate scores", async () => {
    await nav('Router').click();
    await page.getByLabel('Prompt or request body').fill('Solve for x: 3x + 7 = 22. Show your steps.');
    await page.getByRole('button', { name: 'Route' }).click();
    const decision = page.getByRole('region', { name: 'Routing decision' });
    await decision.waitFor();
    await decision.getByRole('heading', { name: /^Routed to rosetta\// }).waitFor();
    expect(await decision.locator('table', { hasText: 'Signals' }).locator('tbody tr').count()).toBeGreaterThan(0);
    expect(await decision.locator('table', { hasText: 'Candidates' }).locator('tbody tr').count()).toBeGreaterThan(1);
    await screenshot(page, 'router');

    // A Responses API body (/v1/responses) is read as one.
    await page.getByLabel('Prompt or request body').fill(JSON.stringify({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'Prove that the square root of 2 is irrational.' }] }], instructions: 'Be rigorous.' }));
    await page.getByRole('button', { name: 'Route' }).click();
    await decision.getByText(/^Read as openai-responses · requested rosetta\/auto/).waitFor();
  });

  it('revokes the key after an in-page confirmation, and the SDK client then gets 401', async () => {
    await nav('Keys').click();
    const row = page.locator('tr', { has: page.getByText('ci-bot', { exact: true }) });
    await row.getByRole('button', { name: 'Revoke' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm revoking ci-bot' });
    await confirm.waitFor();
    await screenshot(page, 'keys-revoke-confirm');
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Show 1 revoked').waitFor();
    const refused = await sdk(secret).chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'after revocation' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);
  });

  it('records every change and sign-in in the audit log, with who and from where', async () => {
    await nav('Audit log').click();
    const rows = page.locator('table.audit tbody tr');
    await rows.first().waitFor();
    const what = await rows.locator('th').allTextContents();
    expect(what).toEqual(['key.revoke ci-bot', 'team.create support', 'provider.put local-vllm', 'key.update ci-bot', 'key.create ci-bot', 'session.sign_in', 'session.sign_in_refused', 'team.create research', 'key.create test-enterprise']);
    await expect(rows.first().locator('td[data-label="Who"]').textContent()).resolves.toBe('admin token admin · dashboard, admin token');
    await expect(rows.first().locator('td[data-label="From"]').textContent()).resolves.toMatch(/^(127\.0\.0\.1|::ffff:127\.0\.0\.1)$/);
    await expect(rows.last().locator('td[data-label="Who"]').textContent()).resolves.toBe('admin token admin · API, bearer token');
    await screenshot(page, 'audit-log');

    await page.getByLabel('What').selectOption('key');
    // The filtered page replaces the whole table: first the old one goes, then the new one comes.
    await rows.filter({ hasText: 'provider.put' }).waitFor({ state: 'detached' });
    await rows.filter({ hasText: 'key.create test-enterprise' }).waitFor();
    expect(await rows.locator('th').allTextContents()).toEqual(['key.revoke ci-bot', 'key.update ci-bot', 'key.create ci-bot', 'key.create test-enterprise']);
    const audit = await adminCall(stack.gateway, 'GET', '/admin/audit?action=provider.put');
    expect(audit.body.data).toEqual([expect.objectContaining({ action: 'provider.put', target_id: 'local-vllm', details: expect.objectContaining({ api_key: '[redacted]', base_url: `${stack.sim.url}/v1` }) })]);
    expect(JSON.stringify(audit.body)).not.toContain('sk-local-vllm-000');
  });

  it('takes changes with the session only from the page itself: the dashboard header, and no other origin', async () => {
    const body = { name: 'forged', plan: 'free' };
    expect(await withCookie('POST', '/admin/keys', {}, body)).toMatchObject({ status: 403, body: { error: { type: 'permission_error' } } });
    expect(await withCookie('POST', '/admin/keys', { 'x-rosetta-dashboard': '1', origin: 'http://evil.example' }, body)).toMatchObject({ status: 403, body: { error: { message: 'Refused: the request comes from another site (http://evil.example)' } } });
    expect(await withCookie('POST', '/admin/keys', { 'x-rosetta-dashboard': '1', origin: url('') }, body)).toMatchObject({ status: 201, body: { name: 'forged' } });
    expect((await withCookie('GET', '/admin/keys')).status).toBe(200);
    expect((await adminCall(stack.gateway, 'GET', '/admin/keys')).status).toBe(200);
  });

  it('adds an Azure OpenAI deployment from the page: the resource, the v1 API, the key sent as api-key (issue 28)', async () => {
    await nav('Providers').click();
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByLabel('Platform').selectOption('azure');
    await page.getByLabel('Slug').fill('azure-east');
    await page.getByLabel('Base URL').fill(stack.sim.url);
    await page.getByLabel('API key').fill('azure-key-000000');
    await page.getByLabel('Model id').fill('rosetta/azure-gpt-4o');
    await page.getByLabel('Deployment').fill('gpt-4o-prod');
    await page.getByLabel('Input $ / M tokens').fill('2.5');
    await page.getByLabel('Output $ / M tokens').fill('10');
    await screenshot(page, 'providers-azure-form');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('region', { name: 'Provider azure-east' }).getByText(`Azure OpenAI · openai · ${stack.sim.url}`).waitFor();
    const stored = (await adminCall(stack.gateway, 'GET', '/admin/providers')).body.find((p: any) => p.slug === 'azure-east');
    expect(stored).toMatchObject({ platform: 'azure', auth: 'api-key', configured: true, endpoints: [expect.objectContaining({ upstream_model: 'gpt-4o-prod', usd_per_million_tokens: { prompt: '2.5', completion: '10' } })] });
    const reply = await sdk(stack.key).chat.completions.create({ model: 'rosetta/azure-gpt-4o', messages: [{ role: 'user', content: 'via Azure' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from gpt-4o-prod: via Azure');
    expect(stack.sim.requests().at(-1)).toMatchObject({ protocol: 'azure-openai', path: '/openai/v1/chat/completions', headers: expect.objectContaining({ 'api-key': 'azure-key-000000' }) });
  });

  it('adds an AWS Bedrock provider from the page: only its fields, the region named when missing, Claude through invoke with a Bedrock API key', async () => {
    await nav('Providers').click();
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('form', { name: 'Add provider' });
    await form.getByLabel('Platform').selectOption('bedrock');
    await form.getByLabel('Region').waitFor();
    const labels = await form.locator('.grid > .field > label').allTextContents();
    expect(labels).toEqual(['Slug', 'Platform', 'Protocol', 'Region', 'API key', 'Base URL']);
    const protocols = await form.getByLabel('Protocol').locator('option').evaluateAll((options: any[]) => options.map((o) => [o.value, o.textContent]));
    expect(protocols).toEqual([['bedrock-converse', 'Converse — every Bedrock model'], ['anthropic', 'Anthropic Messages — Claude through invoke']]);
    await expect(form.locator('#provider-key-hint').textContent()).resolves.toBe('Optional, a Bedrock API key; empty: SigV4 from the gateway’s AWS credentials');
    await expect(form.getByLabel('Bedrock model id').getAttribute('placeholder')).resolves.toBe('global.anthropic.claude-sonnet-4-5-20250929-v1:0');

    await form.getByLabel('Slug').fill('bedrock-east');
    await form.getByLabel('Region').fill('us-east-1');
    await form.getByLabel('Protocol').selectOption('anthropic');
    await form.getByLabel('API key').fill('ABSKZGFzaGJvYXJkLWJlZHJvY2sta2V5');
    await form.getByLabel('Model id', { exact: true }).fill('rosetta/bedrock-dash-sonnet');
    await form.getByLabel('Bedrock model id').fill('anthropic.claude-sonnet-4-5-20250929-v1:0');
    await form.getByLabel('Input $ / M tokens').fill('3');
    await form.getByLabel('Output $ / M tokens').fill('15');
    // Empty, the Base URL shows Bedrock's address for the region typed.
    await expect(form.getByLabel('Base URL').getAttribute('placeholder')).resolves.toBe('https://bedrock-runtime.us-east-1.amazonaws.com');
    await screenshotOf(form, 'providers-bedrock-form');
    // The simulator stands in for a VPC endpoint.
    await form.getByLabel('Base URL').fill(stack.sim.url);

    await form.getByLabel('Region').fill('');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const regionError = form.locator('#provider-region-error');
    await regionError.waitFor();
    await expect(regionError.textContent()).resolves.toBe("Provider 'bedrock-east': region is required with platform: bedrock (e.g. region: us-east-1)");
    await screenshotOf(form, 'providers-bedrock-form-no-region');
    await form.getByLabel('Region').fill('us-east-1');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('region', { name: 'Provider bedrock-east' }).getByText(`AWS Bedrock (us-east-1) · anthropic · ${stack.sim.url}`).waitFor();
    const stored = (await adminCall(stack.gateway, 'GET', '/admin/providers')).body.find((p: any) => p.slug === 'bedrock-east');
    expect(stored).toMatchObject({ platform: 'bedrock', region: 'us-east-1', protocol: 'anthropic', base_url: stack.sim.url, has_api_key: true, configured: true });
    expect(stored.endpoints).toEqual([expect.objectContaining({ model: 'rosetta/bedrock-dash-sonnet', upstream_model: 'anthropic.claude-sonnet-4-5-20250929-v1:0', usd_per_million_tokens: { prompt: '3', completion: '15' } })]);

    const reply = await sdk(stack.key).chat.completions.create({ model: 'rosetta/bedrock-dash-sonnet', messages: [{ role: 'user', content: 'via Bedrock' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from anthropic.claude-sonnet-4-5-20250929-v1:0: via Bedrock');
    expect(stack.sim.requests().at(-1)).toMatchObject({ protocol: 'bedrock-anthropic', path: '/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke', headers: expect.objectContaining({ authorization: 'Bearer ABSKZGFzaGJvYXJkLWJlZHJvY2sta2V5' }) });
  });

  it('adds a Google Vertex AI provider (Gemini) from the page: project and location, no key field, Google\'s address by default', async () => {
    await page.getByRole('button', { name: 'Add provider' }).click();
    const form = page.getByRole('form', { name: 'Add provider' });
    await form.getByLabel('Platform').selectOption('vertex');
    await form.getByLabel('Project').waitFor();
    expect(await form.locator('.grid > .field > label').allTextContents()).toEqual(['Slug', 'Platform', 'Protocol', 'Project', 'Location', 'Base URL']);
    expect(await form.getByLabel('Protocol').locator('option').allTextContents()).toEqual(['Gemini', 'Claude']);
    await expect(form.getByLabel('Vertex model id').getAttribute('placeholder')).resolves.toBe('gemini-2.5-flash');
    await form.getByLabel('Protocol').selectOption('anthropic');
    await expect(form.getByLabel('Vertex model id').getAttribute('placeholder')).resolves.toBe('claude-sonnet-4-5@20250929');
    await form.getByLabel('Protocol').selectOption('gemini');

    await form.getByLabel('Slug').fill('vertex-dash');
    await form.getByLabel('Project').fill('acme-prod');
    await form.getByLabel('Location').fill('global');
    await expect(form.getByLabel('Base URL').getAttribute('placeholder')).resolves.toBe('https://aiplatform.googleapis.com');
    await form.getByLabel('Model id', { exact: true }).fill('rosetta/vertex-dash-flash');
    await form.getByLabel('Vertex model id').fill('gemini-2.5-flash');
    await form.getByLabel('Input $ / M tokens').fill('0.3');
    await form.getByLabel('Output $ / M tokens').fill('2.5');
    await screenshotOf(form, 'providers-vertex-form');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('region', { name: 'Provider vertex-dash' }).getByText('Vertex AI (acme-prod, global) · gemini · https://aiplatform.googleapis.com').waitFor();
    const stored = (await adminCall(stack.gateway, 'GET', '/admin/providers')).body.find((p: any) => p.slug === 'vertex-dash');
    expect(stored).toMatchObject({ platform: 'vertex', project: 'acme-prod', location: 'global', protocol: 'gemini', base_url: 'https://aiplatform.googleapis.com', has_api_key: false });
    expect(stored.endpoints).toEqual([expect.objectContaining({ model: 'rosetta/vertex-dash-flash', upstream_model: 'gemini-2.5-flash', usd_per_million_tokens: { prompt: '0.3', completion: '2.5' } })]);
  });

  it('edits a cloud provider with its settings filled in: a stored key kept, a default address that follows the location', async () => {
    await page.getByRole('button', { name: 'Edit provider bedrock-east' }).click();
    const bedrock = page.getByRole('form', { name: 'Edit provider bedrock-east' });
    const values = (form: typeof bedrock, labels: string[]) => Promise.all(labels.map((label) => form.getByLabel(label, { exact: true }).inputValue()));
    await expect(values(bedrock, ['Platform', 'Region', 'Protocol', 'API key', 'Base URL', 'Model id', 'Bedrock model id'])).resolves.toEqual([
      'bedrock', 'us-east-1', 'anthropic', '', stack.sim.url, 'rosetta/bedrock-dash-sonnet', 'anthropic.claude-sonnet-4-5-20250929-v1:0',
    ]);
    expect(await bedrock.getByLabel('Platform').isDisabled()).toBe(true);
    await expect(bedrock.locator('#provider-key-hint').textContent()).resolves.toBe('Stored (encrypted); leave empty to keep it');
    await bedrock.getByLabel('Region').fill('us-west-2');
    await bedrock.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('region', { name: 'Provider bedrock-east' }).getByText(`AWS Bedrock (us-west-2) · anthropic · ${stack.sim.url}`).waitFor();
    const providers = async () => (await adminCall(stack.gateway, 'GET', '/admin/providers')).body as any[];
    expect((await providers()).find((p) => p.slug === 'bedrock-east')).toMatchObject({ region: 'us-west-2', has_api_key: true, base_url: stack.sim.url });
    await sdk(stack.key).chat.completions.create({ model: 'rosetta/bedrock-dash-sonnet', messages: [{ role: 'user', content: 'still the key' }] });
    expect(stack.sim.requests().at(-1)).toMatchObject({ headers: expect.objectContaining({ authorization: 'Bearer ABSKZGFzaGJvYXJkLWJlZHJvY2sta2V5' }) });

    await page.getByRole('button', { name: 'Edit provider vertex-dash' }).click();
    const vertex = page.getByRole('form', { name: 'Edit provider vertex-dash' });
    // Google's address for the location is not the provider's own: the field stays empty and shows it.
    await expect(values(vertex, ['Platform', 'Project', 'Location', 'Protocol', 'Base URL', 'Vertex model id'])).resolves.toEqual(['vertex', 'acme-prod', 'global', 'gemini', '', 'gemini-2.5-flash']);
    expect(await vertex.getByLabel('API key').count()).toBe(0);
    await vertex.getByLabel('Location').fill('us-east5');
    await expect(vertex.getByLabel('Base URL').getAttribute('placeholder')).resolves.toBe('https://us-east5-aiplatform.googleapis.com');
    await vertex.getByRole('button', { name: 'Save provider' }).click();
    await page.getByRole('region', { name: 'Provider vertex-dash' }).getByText('Vertex AI (acme-prod, us-east5) · gemini · https://us-east5-aiplatform.googleapis.com').waitFor();
    expect((await providers()).find((p) => p.slug === 'vertex-dash')).toMatchObject({ location: 'us-east5', base_url: 'https://us-east5-aiplatform.googleapis.com' });
  });

  it('fits the Requests table in a 1280 × 800 window: long model and key names cut short, the whole name in a tooltip', async () => {
    const model = 'rosetta/customer-support-llama-3.3-70b-instruct-finetune-2026-11-28-v2';
    const keyName = 'nightly-evaluation-pipeline-for-the-research-team-in-eu-west-1';
    const provider = { protocol: 'openai', base_url: `${stack.sim.url}/v1`, api_key: 'sk-long-names-000', endpoints: [{ model, upstream_model: model.slice('rosetta/'.length), context_length: 32768, max_completion_tokens: 4096, pricing: { prompt: '0', completion: '0' } }] };
    expect((await adminCall(stack.gateway, 'PUT', '/admin/providers/long-names-lab', provider)).status).toBe(200);
    const longKey = await adminCall(stack.gateway, 'POST', '/admin/keys', { name: keyName, plan: 'enterprise', team_id: teamId });
    const reply = await sdk(longKey.body.key).chat.completions.create({ model, messages: [{ role: 'user', content: 'a long name' }] }, { headers: { 'x-request-id': 'caller-trace-0123456789abcdef0123456789abcdef-0001' } });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from customer-support-llama-3.3-70b-instruct-finetune-2026-11-28-v2: a long name');

    const wide = await context.newPage();
    await wide.setViewportSize({ width: 1280, height: 800 });
    await wide.goto(url('/dashboard/requests'));
    const recent = wide.getByRole('region', { name: 'Recent requests' });
    const row = recent.locator('tbody tr').first();
    await row.locator('td[data-label="Key"]', { hasText: keyName }).waitFor();
    const sizes = await wide.evaluate<{ table: number; wrap: number; page: number }>(
      "(() => { const table = document.querySelector('table.requests'); return { table: table.scrollWidth, wrap: table.parentElement.clientWidth, page: document.documentElement.scrollWidth }; })()",
    );
    expect(sizes.table).toBeLessThanOrEqual(sizes.wrap);
    expect(sizes.page).toBeLessThanOrEqual(1280);
    // Cut to the cell, and whole in the tooltip.
    await expect(row.locator('td[data-label="Model"] .cut').first().getAttribute('title')).resolves.toBe(model);
    await expect(row.locator('td[data-label="Key"] .cut').getAttribute('title')).resolves.toBe(keyName);
    const cut = await wide.evaluate<boolean>("(() => { const cell = document.querySelector('table.requests tbody tr td[data-label=\"Model\"] .cut'); return cell.scrollWidth > cell.clientWidth; })()");
    expect(cut).toBe(true);
    await screenshot(wide, 'requests-1280');
    await wide.close();
  });

  it('says "not served" for one state everywhere (requests, usage, router, providers), with what to do in a tooltip', async () => {
    const hint = 'No enabled provider with a key serves this model: add a provider for it on the Providers page, or set the key of one that lists it.';
    // A model whose only provider is switched off: nobody serves it.
    const off = { protocol: 'openai', base_url: `${stack.sim.url}/v1`, api_key: 'sk-off-000', disabled: true, endpoints: [{ model: 'rosetta/switched-off-model', upstream_model: 'switched-off', context_length: 32768, max_completion_tokens: 4096, pricing: { prompt: '0', completion: '0' } }] };
    expect((await adminCall(stack.gateway, 'PUT', '/admin/providers/switched-off', off)).status).toBe(200);
    const refused = await sdk(stack.key).chat.completions.create({ model: 'rosetta/switched-off-model', messages: [{ role: 'user', content: 'anyone?' }] }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIError);
    expect((refused as InstanceType<typeof OpenAI.APIError>).status).toBe(503);

    await nav('Requests').click();
    const recent = page.getByRole('region', { name: 'Recent requests' });
    const row = recent.locator('tbody tr').first();
    await row.locator('td[data-label="Model"]', { hasText: 'rosetta/switched-off-model' }).waitFor();
    const label = row.locator('.not-served');
    expect({ text: await label.textContent(), title: await label.getAttribute('title') }).toEqual({ text: 'not served', title: hint });
    await row.getByRole('button', { name: /^Open request / }).click();
    const details = page.getByRole('region', { name: 'Request details' });
    const field = (name: string) => details.locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) }).locator('dd');
    await expect(field('Provider').textContent()).resolves.toBe('not served');
    await expect(field('Why not served').textContent()).resolves.toBe(hint);
    await page.evaluate('scrollTo(0, 0)'); // opening the row scrolled to its details; the screenshot shows the page from the top
    await screenshot(page, 'requests-not-served');

    await nav('Usage').click();
    for (const region of ['By model', 'By provider']) {
      const table = page.getByRole('region', { name: region });
      const cell = table.locator('tbody th .not-served');
      await cell.waitFor();
      expect({ text: await cell.textContent(), title: await cell.getAttribute('title') }).toEqual({
        text: 'not served',
        title: 'Requests no provider answered: the gateway refused them first (a bad request, a limit or a budget: see Requests, errors only), or no enabled provider with a key serves their model (add one on the Providers page, or set its key).',
      });
      await table.locator('.not-served-note').waitFor();
    }
    expect(await page.getByText(/^none$/).count()).toBe(0);
    await screenshot(page, 'usage-not-served');

    await nav('Router').click();
    await page.getByLabel('Prompt or request body').fill(JSON.stringify({ model: 'rosetta/gpt-4o-mini', models: ['rosetta/switched-off-model'], messages: [{ role: 'user', content: 'hi' }] }));
    await page.getByRole('button', { name: 'Route' }).click();
    const decision = page.getByRole('region', { name: 'Routing decision' });
    await decision.getByText('Filters per model').click();
    await expect(decision.locator('.filters-per-model li', { hasText: 'switched-off-model' }).textContent()).resolves.toBe(`rosetta/switched-off-model: not served — ${hint}`);

    await nav('Providers').click();
    const unserved = page.getByRole('group', { name: 'Models not served' });
    await unserved.locator('summary').click();
    await unserved.locator('li', { hasText: 'rosetta/switched-off-model' }).waitFor();
    await expect(unserved.locator('li', { hasText: 'rosetta/switched-off-model' }).textContent()).resolves.toBe('rosetta/switched-off-model — not served: switched-off is disabled');
    await screenshot(page, 'providers-not-served');
  });

  it("sets the response cache on a plan and a key from their forms (the server's message beside a bad field), and the lists show what applies (issue 29)", async () => {
    await nav('Plans').click();
    await page.getByRole('button', { name: 'New plan' }).click();
    const create = page.getByRole('form', { name: 'Create plan' });
    await create.getByLabel('Plan name').fill('cached');
    await create.getByLabel('Requests per minute').fill('600');
    // A TTL only once answers are kept; a similarity only for semantic matching.
    expect(await create.getByLabel('Cache TTL (seconds)').count()).toBe(0);
    await create.getByLabel('Response cache').selectOption('exact');
    expect(await create.getByLabel('Similarity').count()).toBe(0);
    await expect(create.getByLabel('Cache TTL (seconds)').inputValue()).resolves.toBe('3600');
    await create.getByLabel('Cache TTL (seconds)').fill('0');
    await create.getByRole('button', { name: 'Create plan' }).click();
    const refusedTtl = await adminCall(stack.gateway, 'PUT', '/admin/plans/cached', { rpm: 600, tpm: null, cache: { mode: 'exact', ttl_s: 0 } });
    expect({ status: refusedTtl.status, param: refusedTtl.body.error.param }).toEqual({ status: 400, param: 'cache.ttl_s' });
    await expect(create.locator('#new-plan-cache-ttl-error').textContent()).resolves.toBe(refusedTtl.body.error.message);
    await create.getByLabel('Cache TTL (seconds)').fill('600');
    await create.getByLabel('Prompt caching').selectOption('auto');
    await create.getByRole('button', { name: 'Create plan' }).click();
    const cached = page.locator('tr', { has: page.getByRole('rowheader', { name: 'cached' }) });
    await cached.waitFor();
    await cached.getByText('…').waitFor({ state: 'detached' });
    expect(await cached.locator('td').allTextContents()).toEqual(['600', 'Unlimited', 'Exact, 10 min', 'Auto', '0', 'EditDelete']);
    expect((await adminCall(stack.gateway, 'GET', '/admin/plans/cached')).body).toMatchObject({ cache: { mode: 'exact', ttl_s: 600, similarity: 0.95 }, prompt_cache: 'auto' });

    // Semantic shows its similarity; a database without the vector extension refuses it, and the form says so on the field.
    await cached.getByRole('button', { name: 'Edit plan cached' }).click();
    const edit = page.getByRole('form', { name: 'Edit plan cached' });
    await edit.getByLabel('Response cache').selectOption('semantic');
    await expect(edit.getByLabel('Similarity').inputValue()).resolves.toBe('0.95');
    await edit.getByLabel('Similarity').fill('0.9');
    await screenshot(page, 'plans-cache');
    const semantic = await adminCall(stack.gateway, 'PATCH', '/admin/plans/cached', { cache: { mode: 'semantic', ttl_s: 600, similarity: 0.9 } });
    await edit.getByRole('button', { name: 'Save' }).click();
    // Refused exactly when the test database cannot have pgvector (CI's PostgreSQL 15 cannot).
    const [vector] = await query<{ known: boolean }>(stack.db.url, "SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS known");
    expect(semantic.status).toBe(vector!.known ? 200 : 400);
    if (semantic.status === 400) {
      expect(semantic.body.error.param).toBe('cache.mode');
      await expect(edit.locator('#plan-cached-cache-mode-error').textContent()).resolves.toBe(semantic.body.error.message);
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await cached.getByText('Exact, 10 min').waitFor();
    } else {
      await cached.getByText('Semantic ≥ 0.9, 10 min').waitFor();
    }

    // A key inherits its plan's setting until it has its own; the option says what it would inherit.
    await nav('Keys').click();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = page.getByRole('form', { name: 'Create key' });
    await key.getByLabel('Name', { exact: true }).fill('cache-bot');
    await key.getByLabel('Plan', { exact: true }).selectOption('pro');
    await expect(key.getByLabel('Response cache').locator('option:checked').textContent()).resolves.toBe('Inherit from plan (off)');
    await key.getByLabel('Plan', { exact: true }).selectOption('cached');
    await expect(key.getByLabel('Response cache').locator('option:checked').textContent()).resolves.toMatch(/^Inherit from plan \((exact|semantic ≥ 0\.9), 10 min\)$/);
    await expect(key.getByLabel('Prompt caching').locator('option:checked').textContent()).resolves.toBe('Inherit from plan (auto)');
    await key.getByLabel('Response cache').selectOption('exact');
    await key.getByLabel('Cache TTL (seconds)').fill('300');
    await key.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    cacheSecret = (await page.getByTestId('new-secret').textContent())!;
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('tr', { has: page.getByText('cache-bot', { exact: true }) });
    const cell = row.locator('td[data-label="Cache"]');
    await cell.getByText('Exact, 5 min').waitFor();
    await expect(cell.locator('.sub').textContent()).resolves.toBe('prompt auto (plan)');

    await row.getByRole('button', { name: 'Edit cache-bot' }).click();
    const change = page.getByRole('form', { name: 'Edit key cache-bot' });
    await expect(change.getByLabel('Cache TTL (seconds)').inputValue()).resolves.toBe('300');
    await change.getByLabel('Prompt caching').selectOption('off');
    await change.getByRole('button', { name: 'Save' }).click();
    await cell.getByText('prompt off').waitFor();
    await expect(cell.textContent()).resolves.toBe('Exact, 5 minprompt off');
    const stored = (await adminCall(stack.gateway, 'GET', '/admin/keys')).body.find((k: any) => k.name === 'cache-bot');
    expect(stored).toMatchObject({ plan: 'cached', cache: { mode: 'exact', ttl_s: 300, similarity: 0.95 }, prompt_cache: 'off' });
    await screenshot(page, 'keys-cache');
  });

  it('shows a cache hit: the hit rate and the dollars saved on Usage, "cache hit" and what it saved on Requests (issue 29)', async () => {
    const ask = () => sdk(cacheSecret).chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'What does a response cache keep?' }] }).withResponse();
    const first = await ask();
    const second = await ask();
    expect([first.response.headers.get('x-rosetta-cache'), second.response.headers.get('x-rosetta-cache')]).toEqual(['miss', 'hit']);
    expect(second.data.choices[0]!.message.content).toBe(first.data.choices[0]!.message.content);

    // The page shows the hit once the ledger has both rows (within a second; the page refreshes every 15 s).
    await nav('Usage').click();
    const spenders = page.getByRole('region', { name: 'Top spenders (keys)' });
    const line = spenders.locator('tr', { has: page.getByRole('rowheader', { name: 'cache-bot' }) });
    await line.locator('td[data-label="Hit rate"]', { hasText: /^50\.0%$/ }).waitFor();
    const report = (await adminCall(stack.gateway, 'GET', '/admin/usage?group_by=key')).body;
    const mine = report.data.find((r: any) => r.key_name === 'cache-bot');
    expect(mine).toMatchObject({ requests: 2, cache_hits: 1 });
    expect(Number(mine.saved_usd)).toBeGreaterThan(0);
    await expect(line.locator('td[data-label="Saved"]').textContent()).resolves.toBe(usd(mine.saved_usd));
    const tile = (name: string, value: string) => page.locator('.totals div', { has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) }).locator('dd').filter({ hasText: new RegExp(`^${value.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&')}$`) });
    await tile('Cache hit rate', hitRate(report.totals.cache_hits, report.totals.requests)).waitFor();
    await tile('Saved by cache', usd(report.totals.saved_usd)).waitFor();
    await screenshot(page, 'usage-cache');

    await nav('Requests').click();
    const recent = page.getByRole('region', { name: 'Recent requests' });
    const hit = recent.locator('tr', { has: page.getByRole('button', { name: `Open request ${second.response.headers.get('x-request-id')}` }) });
    await expect(hit.locator('td[data-label="Status"] .sub').textContent()).resolves.toBe('cache hit');
    const missed = recent.locator('tr', { has: page.getByRole('button', { name: `Open request ${first.response.headers.get('x-request-id')}` }) });
    await expect(missed.locator('td[data-label="Status"] .sub').textContent()).resolves.toBe('cache miss');
    const hitRow = (await adminCall(stack.gateway, 'GET', `/admin/requests/${second.response.headers.get('x-request-id')}`)).body;
    expect(hitRow).toMatchObject({ cache: 'hit', cost_usd: '0' });
    await hit.getByText(`saved ${usd(hitRow.saved_usd)}`).waitFor();
    await hit.getByRole('button', { name: /^Open request / }).click();
    const details = page.getByRole('region', { name: 'Request details' });
    const field = (name: string) => details.locator('div', { has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) }).locator('dd');
    await expect(field('Response cache').textContent()).resolves.toBe('hit');
    await expect(field('Saved by the cache').textContent()).resolves.toBe(usd(hitRow.saved_usd));
    await expect(field('Prompt cache reads / writes').textContent()).resolves.toBe(`${hitRow.cached_tokens} / ${hitRow.cache_write_tokens} tokens`);
    await page.evaluate('scrollTo(0, 0)'); // opening the row scrolled to its details; the screenshot shows the page from the top
    await screenshot(page, 'requests-cache');
  });

  it('adds an alert webhook from the page (a refused URL named beside its field), shows the generated secret once, and deletes it (issue 31)', async () => {
    await nav('Alerts').click();
    await page.getByRole('heading', { name: 'Alerts' }).waitFor();
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByLabel('URL', { exact: true }).fill('https://10.0.0.7/hook');
    await page.getByRole('checkbox', { name: /Guardrail blocks/ }).check();
    await page.getByRole('button', { name: 'Add webhook', exact: true }).last().click();
    const urlError = page.locator('#webhook-url-error');
    await urlError.waitFor();
    await expect(urlError.textContent()).resolves.toBe('`url` is not allowed: the host is not a public address (private (10.0.0.0/8)).');
    await page.getByLabel('URL', { exact: true }).fill(`http://127.0.0.1:9/rosetta-alerts`);
    await page.getByRole('button', { name: 'Add webhook', exact: true }).last().click();
    const secretShown = await page.getByTestId('new-webhook-secret').textContent();
    expect(secretShown).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'alerts');
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('tr', { has: page.getByText('http://127.0.0.1:9/rosetta-alerts') });
    await expect(row.locator('td[data-label="Events"]').textContent()).resolves.toBe('budget.threshold, guardrail.blocked');
    await expect(row.locator('td[data-label="Last delivery"]').textContent()).resolves.toBe('None yet');
    const listed = await adminCall(stack.gateway, 'GET', '/admin/webhooks');
    expect(JSON.stringify(listed.body)).not.toContain(secretShown!);
    await row.getByRole('button', { name: 'Delete webhook http://127.0.0.1:9/rosetta-alerts' }).click();
    await row.waitFor({ state: 'detached' });
    expect((await adminCall(stack.gateway, 'GET', '/admin/webhooks')).body).toEqual([]);
  });

  it("sets a key's guardrails from its form (the server's message under the field), and the request details show the verdict (issue 31)", async () => {
    const created = await adminCall(stack.gateway, 'POST', '/admin/keys', { name: 'guard-bot', plan: 'enterprise' });
    await nav('Keys').click();
    const row = page.locator('tr', { has: page.getByText('guard-bot', { exact: true }) });
    await row.getByRole('button', { name: 'Edit guard-bot' }).click();
    const form = page.getByRole('form', { name: 'Edit key guard-bot' });
    const field = form.getByLabel('Guardrails');
    await expect(field.inputValue()).resolves.toBe('');
    // Not JSON: said beside the field before anything is sent.
    await field.fill('[{"check": "pii",');
    await form.getByRole('button', { name: 'Save' }).click();
    const error = form.locator(`#edit-${created.body.id.slice(0, 8)}-guardrails-error`);
    await expect(error.textContent()).resolves.toMatch(/^Guardrails must be a JSON list of checks: /);
    // JSON, but a pattern the engine refuses: the gateway's message, naming the path.
    const bad = [{ check: 'regex', on: 'input', action: 'block', patterns: ['(a)\\1'] }];
    await field.fill(JSON.stringify(bad));
    await form.getByRole('button', { name: 'Save' }).click();
    const refused = await adminCall(stack.gateway, 'PATCH', `/admin/keys/${created.body.id}`, { guardrails: bad });
    expect({ status: refused.status, param: refused.body.error.param }).toEqual({ status: 400, param: 'guardrails[0].patterns[0]' });
    await expect(error.textContent()).resolves.toBe(refused.body.error.message);
    const good = [{ check: 'pii', on: 'input', action: 'redact', kinds: ['email'] }];
    await field.fill(JSON.stringify(good));
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    expect((await adminCall(stack.gateway, 'GET', `/admin/keys/${created.body.id}`)).body.guardrails).toEqual(good);

    const answered = await sdk(created.body.key).chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'mail me at jo@corp.example' }] }).withResponse();
    expect(answered.data.choices[0]!.message.content).toContain('mail me at [REDACTED:email]');
    const id = answered.response.headers.get('x-request-id')!;
    await nav('Requests').click();
    for (let i = 0; (await adminCall(stack.gateway, 'GET', `/admin/requests/${id}`)).status !== 200 && i < 100; i++) await new Promise((r) => setTimeout(r, 50));
    await page.getByLabel('Request ID').fill(id);
    await page.getByRole('button', { name: 'Look up' }).click();
    const details = page.getByRole('region', { name: 'Request details' });
    await details.waitFor();
    const verdicts = details.locator('div', { has: page.locator('dt', { hasText: /^Guardrails$/ }) }).locator('dd');
    await expect(verdicts.textContent()).resolves.toBe('redact key[0] pii on input: email');
    await screenshot(page, 'request-guardrails');
  });

  it('renders /docs with the fields of each request body and answer: required, type, nested objects that open', async () => {
    const docs = await context.newPage();
    await docs.goto(url('/docs'));
    // Each field row's name, type and whether it is required (this file is compiled without the DOM's types).
    const fieldsOf = (list: ReturnType<Page['locator']>) =>
      list.evaluateAll((rows: any[]) => rows.map((f) => ({ name: f.querySelector('.f-name').textContent as string, type: f.querySelector('.f-type').textContent as string, required: Boolean(f.querySelector('.f-req')) })));
    const chat = docs.getByRole('region', { name: 'POST /v1/chat/completions' });
    const body = chat.getByRole('group', { name: 'Request body' });
    await body.locator('summary').first().click();
    const top = body.locator(':scope > ul.fields > li > .f, :scope > ul.fields > li > details > summary.f');
    await top.first().waitFor();
    const fields = await fieldsOf(top);
    expect(fields.find((f) => f.name === 'messages')).toEqual({ name: 'messages', type: 'array of OpenAIChatMessage', required: true });
    expect(fields.find((f) => f.name === 'model')).toEqual({ name: 'model', type: 'string', required: false });
    expect(fields.find((f) => f.name === 'route_knob')).toEqual({ name: 'route_knob', type: 'number', required: false });
    // A nested object opens in place: a message's role, with its allowed values.
    await body.locator('summary.f', { hasText: 'messages' }).click();
    const role = body.locator('li.field', { has: docs.locator('.f-name', { hasText: /^role$/ }) }).first();
    await role.waitFor();
    await expect(role.locator('.f-enum').textContent()).resolves.toBe('one of system developer user assistant tool');

    const answer = chat.getByRole('group', { name: 'Response 200' });
    await answer.locator('summary').first().click();
    const answerFields = await fieldsOf(answer.locator(':scope > ul.fields > li > .f, :scope > ul.fields > li > details > summary.f'));
    expect(answerFields.map((f) => f.name)).toEqual(['id', 'object', 'created', 'model', 'choices', 'usage']);
    expect(answerFields.find((f) => f.name === 'choices')).toEqual({ name: 'choices', type: 'array of object', required: true });

    const createKey = docs.getByRole('region', { name: 'POST /admin/keys' });
    await createKey.getByRole('group', { name: 'Request body' }).locator('summary').first().click();
    const keyFields = await fieldsOf(createKey.getByRole('group', { name: 'Request body' }).locator(':scope > ul.fields > li > .f, :scope > ul.fields > li > details > summary.f'));
    expect(keyFields.slice(0, 3)).toEqual([
      { name: 'name', type: 'string', required: true },
      { name: 'plan', type: 'string', required: true },
      { name: 'team_id', type: 'string | null', required: false },
    ]);
    expect(keyFields.map((f) => f.name)).toEqual(['name', 'plan', 'team_id', 'rpm', 'tpm', 'expires_at', 'budget_usd', 'end_user_budget_usd', 'budget_period', 'models', 'cache', 'prompt_cache', 'guardrails']);
    // Caching (issue 29): the response cache an object that opens in place, prompt caching a word;
    // guardrails (issue 31) a list of checks.
    expect(keyFields.slice(-3)).toEqual([
      { name: 'cache', type: 'object | null', required: false },
      { name: 'prompt_cache', type: 'string | null', required: false },
      { name: 'guardrails', type: 'array of GuardrailCheck | null', required: false },
    ]);
    await screenshot(docs, 'docs');
    await docs.close();
  });

  it('fits a phone-width window', async () => {
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(url('/dashboard/usage'));
    await phone.getByRole('region', { name: 'Top spenders (keys)' }).waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone, 'phone-usage');
    await phone.getByRole('button', { name: 'Menu' }).click();
    await phone.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Keys' }).click();
    await phone.getByRole('heading', { name: 'Keys' }).waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone, 'phone-keys');
    await phone.getByRole('button', { name: 'Create key' }).click();
    await phone.getByText(/\d+ models: the list scrolls\./).waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone, 'phone-key-form');
    await phone.goto(url('/dashboard/requests'));
    await phone.getByRole('region', { name: 'Recent requests' }).locator('tbody tr').first().waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(phone, 'phone-requests');
    // The provider form's two-column Protocol field keeps to the phone's one column.
    await phone.goto(url('/dashboard/providers'));
    await phone.getByRole('button', { name: 'Add provider' }).click();
    await phone.getByLabel('Platform').selectOption('bedrock');
    await phone.getByLabel('Protocol').waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshotOf(phone.getByRole('form', { name: 'Add provider' }), 'phone-provider-form');
    await phone.close();
  });

  it('signs out: the session ends on the server, on every replica, not only in this browser', async () => {
    const before = await sessionCookie();
    // Another replica on the same database takes the session, and forgets it at sign-out.
    const replica = await startGateway({ DATABASE_URL: stack.db.url, OPENAI_BASE_URL: `${stack.sim.url}/v1`, OPENAI_API_KEY: 'sk-replica-000' });
    const onReplica = () => fetch(`${replica.url}/admin/keys`, { headers: { cookie: `rosetta_session=${before!.value}` } }).then((r) => r.status);
    await expect(onReplica()).resolves.toBe(200);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await page.getByText('You are signed out.').waitFor();
    const replay = await fetch(url('/admin/keys'), { headers: { cookie: `rosetta_session=${before!.value}` } });
    expect({ status: replay.status, message: ((await replay.json()) as any).error.message }).toEqual({ status: 401, message: 'Your dashboard session has ended (signed out or expired): sign in again' });
    await expect(onReplica()).resolves.toBe(401);
    await replica.stop();
    const audit = await adminCall(stack.gateway, 'GET', '/admin/audit?action=session.sign_out');
    expect(audit.body.data).toEqual([expect.objectContaining({ actor: 'admin token', method: 'token' })]);
  });

  it('"Sign out all sessions" (confirmed) ends every session, another browser\'s too', async () => {
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Signed in again on whichever page the last test left open.
    await page.getByRole('button', { name: 'Sign out all sessions' }).waitFor();
    const elsewhere = await fetch(url('/admin/session'), { method: 'POST', headers: { 'x-rosetta-dashboard': '1', 'content-type': 'application/json' }, body: JSON.stringify({ token: TEST_ADMIN_TOKEN }) });
    const otherCookie = elsewhere.headers.get('set-cookie')!.split(';')[0]!;
    await page.getByRole('button', { name: 'Sign out all sessions' }).click();
    await screenshot(page, 'sign-out-all-confirm');
    await page.getByRole('button', { name: 'Sign out everyone' }).click();
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await page.getByText('Signed out all sessions (2), yours included.').waitFor();
    expect((await fetch(url('/admin/keys'), { headers: { cookie: otherCookie } })).status).toBe(401);
  });
});
