import { startSimulator, type RunningSimulator } from './simulator';

const AUTH = { authorization: 'Bearer sk-sim-test', 'content-type': 'application/json' };

type Message = Record<string, unknown>;

const question: Message = { role: 'user', content: 'weather in Paris and Rome?' };
const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map((id) => ({ id, type: 'function', function: { name: 'get_weather', arguments: '{}' } })),
});
const result = (id: string, content = 'sunny'): Message => ({ role: 'tool', tool_call_id: id, content });

async function send(sim: RunningSimulator, messages: Message[], extra: Record<string, unknown> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers: AUTH, body: JSON.stringify({ model: 'm', messages, ...extra }) });
  return { status: response.status, body: await response.json() };
}

describe('OpenAI strictness (each rule: one accepted and one rejected request)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it("requires every tool message to answer a tool_calls id of the assistant message it follows", async () => {
    const ok = await send(sim, [question, calls('call_1', 'call_2'), result('call_2', 'rain'), result('call_1')]);
    expect(ok.status).toBe(200);
    expect(ok.body.choices[0].message.content).toBe('Tool results received: rain; sunny');
    const withSystem = await send(sim, [question, calls('call_1', 'call_2'), result('call_2'), { role: 'system', content: 'x' }, result('call_1')]);
    expect(withSystem.status).toBe(200);
    const unknownId = await send(sim, [question, calls('call_1'), result('call_9')]);
    expect(unknownId).toEqual({
      status: 400,
      body: {
        error: {
          message: "Invalid parameter: 'tool_call_id' of 'call_9' not found in 'tool_calls' of previous message.",
          type: 'invalid_request_error',
          param: 'messages[2].tool_call_id',
          code: null,
        },
      },
    });
    const orphan = await send(sim, [question, result('call_1')]);
    expect(orphan).toEqual({
      status: 400,
      body: {
        error: {
          message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          type: 'invalid_request_error',
          param: 'messages[1].role',
          code: null,
        },
      },
    });
    const afterUser = await send(sim, [question, calls('call_1'), result('call_1'), { role: 'user', content: 'and?' }, result('call_1')]);
    expect(afterUser.status).toBe(400);
    expect(afterUser.body.error.param).toBe('messages[4].role');
  });

  it('requires all tool_calls ids to be answered before the next user or assistant message', async () => {
    const unanswered = {
      error: {
        message:
          "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_2",
        type: 'invalid_request_error',
        param: 'messages[1].role',
        code: null,
      },
    };
    expect(await send(sim, [question, calls('call_1', 'call_2'), result('call_1'), { role: 'user', content: 'next' }])).toEqual({ status: 400, body: unanswered });
    expect(await send(sim, [question, calls('call_1', 'call_2'), result('call_1')])).toEqual({ status: 400, body: unanswered });
    const answered = await send(sim, [question, calls('call_1', 'call_2'), result('call_1'), result('call_2'), { role: 'user', content: 'next' }]);
    expect(answered.status).toBe(200);
  });

  it('records rejected requests', async () => {
    sim.reset();
    await send(sim, [question, result('nope')]);
    expect(sim.requests().map((request) => request.protocol)).toEqual(['openai']);
  });
});

describe('OpenAI reasoning_effort', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('produces default reasoning when reasoning_effort is set, and none for none or absent', async () => {
    const words = 'one two three four five six seven eight nine';
    const thinking = await send(sim, [{ role: 'user', content: words }], { reasoning_effort: 'low' });
    expect(thinking.body.choices[0].message).toEqual({
      role: 'assistant',
      content: `Simulated reply from m: ${words}`,
      reasoning_content: 'Considering: one two three four five six seven eight',
      refusal: null,
      annotations: [],
    });
    expect(thinking.body.usage.completion_tokens_details.reasoning_tokens).toBe(9);
    expect(thinking.body.usage.completion_tokens).toBe(9 + 13);
    for (const extra of [{ reasoning_effort: 'none' }, {}]) {
      const plain = await send(sim, [{ role: 'user', content: words }], extra);
      expect(plain.body.choices[0].message.reasoning_content).toBeUndefined();
      expect(plain.body.usage.completion_tokens_details.reasoning_tokens).toBe(0);
    }
  });
});
