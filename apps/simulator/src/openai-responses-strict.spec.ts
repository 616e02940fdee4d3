import { startSimulator, type RunningSimulator } from './simulator';

const AUTH = { authorization: 'Bearer sk-sim-test', 'content-type': 'application/json' };

type Item = Record<string, unknown>;

async function send(sim: RunningSimulator, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sim.url}/v1/responses`, { method: 'POST', headers: AUTH, body: JSON.stringify({ model: 'gpt-5-codex', store: false, include: ['reasoning.encrypted_content'], ...body }) });
  return { status: response.status, body: await response.json() };
}

describe('Responses strictness: reasoning goes back as it came', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  async function firstTurn(): Promise<{ question: Item; output: Item[] }> {
    const question = { role: 'user', content: 'Weather in Oslo? <sim>{"toolCalls":[{"name":"get_weather","arguments":{"city":"Oslo"}}]}</sim>' };
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const first = await send(sim, { input: [question], tools, reasoning: { effort: 'low' } });
    expect(first.status).toBe(200);
    return { question, output: first.body.output as Item[] };
  }

  it('accepts the output items replayed as the openai SDK keeps them, ids included', async () => {
    const { question, output } = await firstTurn();
    const call = output.find((item) => item['type'] === 'function_call')!;
    const next = await send(sim, { input: [question, ...output, { type: 'function_call_output', call_id: call['call_id'], output: 'cold' }] });
    expect({ status: next.status, text: next.body.output?.[0]?.content?.[0]?.text }).toEqual({ status: 200, text: 'Tool results received: cold' });
  });

  it('accepts reasoning replayed as Codex sends it: no id, the encrypted content unchanged', async () => {
    const { question, output } = await firstTurn();
    // Codex never serialises the ids of the items it keeps (codex-rs ResponseItem: `skip_serializing`).
    const codex = output.map(({ id: _, ...rest }) => rest);
    const call = output.find((item) => item['type'] === 'function_call')!;
    const next = await send(sim, { input: [question, ...codex, { type: 'function_call_output', call_id: call['call_id'], output: 'cold' }] });
    expect({ status: next.status, error: next.body.error ?? null }).toEqual({ status: 200, error: null });
  });

  it('refuses reasoning whose encrypted content was changed', async () => {
    const { question, output } = await firstTurn();
    const changed = output.map((item) => (item['type'] === 'reasoning' ? { ...item, encrypted_content: `${String(item['encrypted_content'])}x` } : item));
    const next = await send(sim, { input: [question, ...changed] });
    expect({ status: next.status, param: next.body.error?.param }).toEqual({ status: 400, param: 'input[1].encrypted_content' });
  });
});

describe('Responses reasoning parameters', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it.each(['gpt-4o', 'gpt-4.1', 'gpt-5-chat-latest'])('refuses encrypted reasoning for %s, which does not reason, as OpenAI does', async (model) => {
    const answer = await send(sim, { model, input: 'hi' });
    expect(answer).toEqual({
      status: 400,
      body: { error: { message: 'Encrypted content is not supported with this model.', type: 'invalid_request_error', param: 'include', code: 'unsupported_parameter' } },
    });
  });

  it('serves the same model without it, and a reasoning model with it', async () => {
    const plain = await send(sim, { model: 'gpt-4.1', input: 'hi', include: [] });
    const reasoning = await send(sim, { model: 'gpt-5-codex', input: 'hi' });
    expect([plain.status, reasoning.status]).toEqual([200, 200]);
  });
});

describe('Responses tools', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('names the namespace of a namespaced tool it calls, as OpenAI does', async () => {
    const tools = [{ type: 'namespace', name: 'crm', description: 'CRM', tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object', properties: {} } }] }];
    const reply = await send(sim, { input: 'Find Ada <sim>{"toolCalls":[{"name":"lookup","arguments":{}}]}</sim>', tools });
    expect(reply.body.output).toEqual([expect.objectContaining({ type: 'function_call', name: 'lookup', namespace: 'crm', arguments: '{}' })]);
  });
});

