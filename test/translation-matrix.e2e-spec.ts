import type { RunningSimulator } from '../apps/simulator/src';
import type { GatewayProcess } from './support/gateway-process';
import { defineMatrixCases, type MatrixUpstream } from './support/matrix-cases';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * The whole 4 × 4 matrix: each official SDK as the client (the openai package twice: chat
 * completions and the Responses API), each provider protocol as the upstream (the simulator,
 * which checks pairing rules and signatures like the real APIs), plain, streamed and in a tool
 * loop, asserting what the client got and what the upstream received. The clouds' columns are in
 * translation-matrix-clouds.e2e-spec.ts.
 */
const UPSTREAMS: readonly MatrixUpstream[] = [
  { protocol: 'openai', reasoning: 'openai', model: 'rosetta/gpt-4o-mini', upstreamModel: 'gpt-4o-mini', path: '/v1/chat/completions' },
  { protocol: 'anthropic', reasoning: 'anthropic', model: 'rosetta/claude-haiku-4-5', upstreamModel: 'claude-haiku-4-5', path: '/v1/messages' },
  { protocol: 'gemini', reasoning: 'gemini', model: 'rosetta/gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', path: '/v1beta/models/gemini-2.5-flash:' },
  { protocol: 'openai-responses', reasoning: 'openai-responses', model: RESPONSES_MODEL, upstreamModel: 'gpt-5-codex', path: '/v1/responses' },
];

describe('translation matrix: 4 client dialects × 4 upstream protocols', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;

  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway, key } = stack);
    await addResponsesUpstream(gateway, sim.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  defineMatrixCases(() => ({ sim, gatewayUrl: gateway.url, key }), UPSTREAMS);

  it('count_tokens answers for dialect B and countTokens for dialect C', async () => {
    const b = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'rosetta/claude-haiku-4-5', messages: [{ role: 'user', content: 'hello world, how are you?' }] }),
    });
    expect(b.status).toBe(200);
    expect(await b.json()).toEqual({ input_tokens: 14 });
    const c = await fetch(`${gateway.url}/v1beta/models/rosetta/gemini-2.5-flash:countTokens`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello world, how are you?' }] }] }),
    });
    expect(c.status).toBe(200);
    expect(await c.json()).toEqual({ totalTokens: 14 });
  });
});
