import { startSimulator, type RunningSimulator } from '../../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './gateway-process';
import { createTestDatabase } from './services';

/** A simulator speaking all three protocols, a fresh database, and a gateway routed to both. */
export interface Stack {
  sim: RunningSimulator;
  db: { url: string; drop(): Promise<void> };
  gateway: GatewayProcess;
  /** An enterprise key (no rate limits). */
  key: string;
  stop(): Promise<void>;
}

export const OPERATOR_KEYS = {
  OPENAI_API_KEY: 'sk-openai-operator-000000',
  ANTHROPIC_API_KEY: 'sk-ant-operator-000000',
  GEMINI_API_KEY: 'gemini-operator-000000',
};

export async function startStack(env: Record<string, string> = {}): Promise<Stack> {
  const sim = await startSimulator();
  const db = await createTestDatabase();
  let gateway: GatewayProcess;
  try {
    gateway = await startGateway({
      DATABASE_URL: db.url,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      ANTHROPIC_BASE_URL: sim.url,
      GEMINI_BASE_URL: sim.url,
      ...OPERATOR_KEYS,
      ...env,
    });
  } catch (error) {
    // A gateway that did not start must not leave the simulator (and Jest) running.
    await sim.close();
    await db.drop();
    throw error;
  }
  let key: string;
  try {
    ({ key } = await createKey(gateway, 'enterprise'));
  } catch (error) {
    // Nor may a gateway that started but refused the key: its child process would keep Jest alive.
    await gateway.stop();
    await sim.close();
    await db.drop();
    throw error;
  }
  return {
    sim,
    db,
    gateway,
    key,
    stop: async () => {
      await gateway.stop();
      await sim.close();
      await db.drop();
    },
  };
}

/** The model a Responses-protocol provider serves in the tests (OpenAI serves gpt-5-codex only that way). */
export const RESPONSES_MODEL = 'rosetta/gpt-5-codex';

/**
 * Adds a provider that speaks the Responses protocol (the simulator) through the admin API, as an
 * operator would, serving RESPONSES_MODEL; resolves once the gateway routes to it.
 */
export async function addResponsesUpstream(gateway: GatewayProcess, simUrl: string, slug = 'oai-responses'): Promise<void> {
  const put = await adminCall(gateway, 'PUT', `/admin/providers/${slug}`, {
    protocol: 'openai-responses',
    base_url: `${simUrl}/v1`,
    api_key: 'sk-responses-operator-000',
    endpoints: [
      { model: RESPONSES_MODEL, upstream_model: 'gpt-5-codex', context_length: 400000, max_completion_tokens: 128000, reasoning: true, tools: true, pricing: { prompt: '0.00000125', completion: '0.00001', input_cache_read: '0.000000125' } },
    ],
  });
  if (put.status !== 200) throw new Error(`provider creation failed: ${put.status} ${JSON.stringify(put.body)}`);
}
