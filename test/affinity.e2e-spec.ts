import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { OPERATOR_KEYS } from './support/stack';
import { createTestDatabase, query, TEST_REDIS_URL } from './support/services';

/** The chat body with Rosetta's routing knob, which the SDK sends as given. */
type AutoParams = OpenAI.ChatCompletionCreateParamsNonStreaming & { route_knob?: number };

/** rosetta/auto keeps a conversation on one model, across replicas sharing Redis. */
describe('session affinity for rosetta/auto', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let replicas: GatewayProcess[];

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: TEST_REDIS_URL, OPENAI_BASE_URL: `${sim.url}/v1`, ANTHROPIC_BASE_URL: sim.url, GEMINI_BASE_URL: sim.url, ...OPERATOR_KEYS };
    replicas = await Promise.all([startGateway(env), startGateway(env)]);
  });

  afterAll(async () => {
    await Promise.all((replicas ?? []).map((g) => g.stop()));
    await sim?.close();
    await db?.drop();
  });

  it('keeps a four-turn conversation on the model of its first turn, whichever replica answers, and says so', async () => {
    const { key, id } = await createKey(replicas[0]!, 'enterprise');
    const clients = replicas.map((g) => new OpenAI({ apiKey: key, baseURL: `${g.url}/v1`, maxRetries: 0 }));
    const history: ChatCompletionMessageParam[] = [];
    const turns = ['Prove that the square root of 2 is irrational, step by step.', 'Thanks!', 'What is 2 + 2?', 'Say hello in French.'];
    const served: string[] = [];
    const routes: string[] = [];
    for (const [i, content] of turns.entries()) {
      history.push({ role: 'user', content });
      // Quality-first for the opening, cost-saving after it: alone, the later turns would go to a cheaper model.
      const knob = i === 0 ? 1 : 0;
      const params: AutoParams = { model: 'rosetta/auto', messages: history, route_knob: knob };
      const { data, response } = await clients[i % 2]!.chat.completions.create(params).withResponse();
      served.push(data.model);
      routes.push(response.headers.get('x-rosetta-route')!);
      history.push({ role: 'assistant', content: data.choices[0]!.message.content ?? '' });
    }
    expect(new Set(served).size).toBe(1);
    expect(routes[0]).toMatch(/affinity=new/);
    for (const route of routes.slice(1)) expect(route).toMatch(/affinity=kept/);
    // The same cost-saving turn in a conversation of its own goes elsewhere: the turns above were held.
    const single: AutoParams = { model: 'rosetta/auto', messages: [{ role: 'user', content: 'Thanks!' }], route_knob: 0 };
    const alone = await clients[0]!.chat.completions.create(single);
    expect(alone.model).not.toBe(served[0]);
    // The ledger shows the session on one model.
    let rows: { served_model: string }[] = [];
    for (let i = 0; i < 100 && rows.length < 5; i++) {
      rows = await query<{ served_model: string }>(db.url, 'SELECT served_model FROM request_log WHERE api_key_id = $1 ORDER BY created_at', [id]);
      if (rows.length < 5) await new Promise((r) => setTimeout(r, 50));
    }
    expect(rows.slice(0, 4).map((r) => r.served_model)).toEqual(served);
  });
});
