import type { RunningSimulator } from '../apps/simulator/src';
import { adminCall } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';

/**
 * Reasoning parameters over the Responses protocol go only to endpoints that reason (issue 26,
 * item 16): OpenAI refuses `include: ["reasoning.encrypted_content"]` for gpt-4o, gpt-4.1 and
 * gpt-5-chat with a 400, which the gateway, when the registry got it wrong, learns from.
 */
describe('Responses upstream: reasoning parameters by capability', () => {
  let stack: Stack;
  let sim: RunningSimulator;

  /** Two providers on the Responses protocol for rosetta/gpt-4.1: one registered right, one as reasoning. */
  const addProvider = async (slug: string, reasoning: boolean) => {
    const put = await adminCall(stack.gateway, 'PUT', `/admin/providers/${slug}`, {
      protocol: 'openai-responses',
      base_url: `${sim.url}/v1`,
      api_key: 'sk-responses-operator-000',
      endpoints: [{ model: 'rosetta/gpt-4.1', upstream_model: 'gpt-4.1', context_length: 1047576, max_completion_tokens: 32768, reasoning, tools: true, pricing: { prompt: '0.000002', completion: '0.000008' } }],
    });
    expect(put.status).toBe(200);
  };

  beforeAll(async () => {
    stack = await startStack();
    sim = stack.sim;
    await addProvider('resp-plain', false);
    await addProvider('resp-misregistered', true);
    await addProvider('resp-misregistered-too', true);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const marker = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
  const upstreamBodies = (m: string) => sim.requests().filter((r) => r.protocol === 'openai-responses' && JSON.stringify(r.body).includes(m)).map((r) => r.body as Record<string, unknown>);
  const reasoningFields = (body: Record<string, unknown>) => ({ include: body['include'], reasoning: body['reasoning'] });

  const chat = (provider: string, m: string, extra: Record<string, unknown> = {}) =>
    fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4.1', messages: [{ role: 'user', content: `hi ${m}` }], provider_only: [provider], ...extra }),
    });

  const responses = (provider: string, m: string, extra: Record<string, unknown> = {}) =>
    fetch(`${stack.gateway.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4.1', input: `hi ${m}`, provider_only: [provider], ...extra }),
    });

  it('sends no reasoning parameters to an endpoint registered as not reasoning, translated or forwarded', async () => {
    const m = marker('plain');
    const translated = await chat('resp-plain', m, { reasoning_effort: 'low' });
    // A Responses client asking for encrypted reasoning (as Codex does) on the same-protocol path.
    const forwarded = await responses('resp-plain', m, { include: ['reasoning.encrypted_content', 'message.output_text.logprobs'], reasoning: { effort: 'low' }, store: false });
    expect([translated.status, forwarded.status]).toEqual([200, 200]);
    expect(upstreamBodies(m).map(reasoningFields)).toEqual([
      { include: undefined, reasoning: undefined },
      { include: ['message.output_text.logprobs'], reasoning: undefined },
    ]);
  });

  it('learns from the 400 of an endpoint registered as reasoning: retries once without, then stops sending them, and the endpoint stays healthy', async () => {
    const m = marker('learn');
    const first = await chat('resp-misregistered', m);
    expect({ status: first.status, attempts: first.headers.get('x-rosetta-attempts'), provider: first.headers.get('x-rosetta-provider') }).toEqual({ status: 200, attempts: '1', provider: 'resp-misregistered' });
    const m2 = marker('learned');
    const second = await responses('resp-misregistered', m2, { stream: true });
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('response.completed');
    expect([...upstreamBodies(m), ...upstreamBodies(m2)].map((b) => b['include'])).toEqual([['reasoning.encrypted_content'], undefined, undefined]);
    const record = (await (await fetch(`${stack.gateway.url}/v1/models/rosetta/gpt-4.1`, { headers: { authorization: `Bearer ${stack.key}` } })).json()) as { providers: Array<Record<string, unknown>> };
    const entry = record.providers.find((p) => p['name'] === 'resp-misregistered')!;
    expect({ status: entry['status'], uptime: entry['uptime_last_30m'] }).toEqual({ status: 0, uptime: '100.00' });
  });

  it('learns the same way when the refused call is a stream', async () => {
    const m = marker('stream');
    const res = await responses('resp-misregistered-too', m, { stream: true });
    expect({ status: res.status, provider: res.headers.get('x-rosetta-provider') }).toEqual({ status: 200, provider: 'resp-misregistered-too' });
    expect(await res.text()).toContain('response.completed');
    expect(upstreamBodies(m).map((b) => b['include'])).toEqual([['reasoning.encrypted_content'], undefined]);
  });
});
