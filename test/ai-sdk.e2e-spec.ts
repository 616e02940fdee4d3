import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import type { RunningSimulator } from '../apps/simulator/src';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * The Vercel AI SDK's default OpenAI provider (`createOpenAI(...)(model)`) speaks the Responses
 * API: a tool loop it runs itself, and a stream, through every upstream protocol.
 */
describe('Vercel AI SDK, default OpenAI provider', () => {
  let stack: Stack;
  let sim: RunningSimulator;

  beforeAll(async () => {
    stack = await startStack();
    sim = stack.sim;
    await addResponsesUpstream(stack.gateway, sim.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  /** What the SDK sent the gateway, to see it use the stored conversation. */
  const sent: Array<Record<string, unknown>> = [];
  const provider = () =>
    createOpenAI({
      apiKey: stack.key,
      baseURL: `${stack.gateway.url}/v1`,
      fetch: (input, init) => {
        if (typeof init?.body === 'string') sent.push(JSON.parse(init.body) as Record<string, unknown>);
        return fetch(input, init);
      },
    });
  const MODELS = [
    ['openai', 'rosetta/gpt-4o-mini'],
    ['anthropic', 'rosetta/claude-haiku-4-5'],
    ['gemini', 'rosetta/gemini-2.5-flash'],
    ['openai-responses', RESPONSES_MODEL],
  ] as const;

  it.each(MODELS)('runs a tool loop through a %s-protocol upstream', async (protocol, model) => {
    const m = `aisdk-${Math.random().toString(36).slice(2, 10)}`;
    sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Quito' } }] }, times: 1 });
    const cities: string[] = [];
    const result = await generateText({
      model: provider()(model),
      prompt: `Weather in Quito? ${m}`,
      tools: {
        get_weather: tool({
          description: 'Current weather for a city',
          inputSchema: z.object({ city: z.string() }),
          execute: async ({ city }) => {
            cities.push(city);
            return { temp_c: 14 };
          },
        }),
      },
      stopWhen: stepCountIs(3),
    });
    expect(cities).toEqual(['Quito']);
    expect(result.text).toBe('Tool results received: {"temp_c":14}');
    expect(result.steps).toHaveLength(2);
    expect(result.response.modelId).toBe(model);
    const upstream = sim.requests().filter((r) => JSON.stringify(r.body).includes(m));
    expect(upstream.map((r) => r.protocol)).toEqual([protocol, protocol]);
    expect(sent.at(-1)!['input']).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'function_call_output', output: '{"temp_c":14}' })]));
  });

  it.each(MODELS)('continues a conversation by item reference through a %s-protocol upstream', async (protocol, model) => {
    const m = `aisdk-ref-${Math.random().toString(36).slice(2, 10)}`;
    const question = { role: 'user' as const, content: `Name a colour ${m}` };
    const first = await generateText({ model: provider()(model), messages: [question] });
    const second = await generateText({ model: provider()(model), messages: [question, ...first.response.messages, { role: 'user', content: 'Another one' }] });
    expect(second.text).toBe(`Simulated reply from ${model.replace('rosetta/', '')}: Another one`);
    // The SDK referred to the stored answer (store defaults to true) instead of repeating it...
    expect(sent.at(-1)!['input']).toEqual(expect.arrayContaining([{ type: 'item_reference', id: expect.stringMatching(/^msg_/) }]));
    // ...and the upstream got the whole conversation back, the answer included, in its own protocol.
    const upstream = sim.requests().filter((r) => JSON.stringify(r.body).includes(m)).at(-1)!;
    expect(upstream.protocol).toBe(protocol);
    expect(JSON.stringify(upstream.body)).toContain(first.text);
  });

  it('continues after reasoning from a Responses upstream, referring to it by id as it does with store: true', async () => {
    const m = `aisdk-think-${Math.random().toString(36).slice(2, 10)}`;
    const question = { role: 'user' as const, content: `Name a colour ${m}` };
    // A rosetta/ model id is no reasoning model to the SDK, which would drop the effort otherwise.
    const providerOptions = { openai: { reasoningEffort: 'low' as const, forceReasoning: true } };
    const first = await generateText({ model: provider()(RESPONSES_MODEL), messages: [question], providerOptions });
    expect(first.reasoning.map((part) => part.type)).toEqual(['reasoning']);
    const second = await generateText({ model: provider()(RESPONSES_MODEL), messages: [question, ...first.response.messages, { role: 'user', content: 'Another one' }], providerOptions });
    expect(second.text).toBe('Simulated reply from gpt-5-codex: Another one');
    expect(sent.at(-1)!['input']).toEqual(expect.arrayContaining([{ type: 'item_reference', id: expect.stringMatching(/^rs_/) }]));
    // The upstream got its reasoning back, byte for byte (the simulator verifies it).
    const upstream = sim.requests().filter((r) => JSON.stringify(r.body).includes(m)).at(-1)!.body as { input: Array<Record<string, unknown>> };
    expect(upstream.input.filter((item) => item['type'] === 'reasoning')).toEqual([expect.objectContaining({ encrypted_content: expect.any(String) })]);
  });

  it('streams text', async () => {
    const result = streamText({ model: provider()('rosetta/claude-haiku-4-5'), prompt: 'Count to three' });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Simulated reply from claude-haiku-4-5: Count to three');
    expect((await result.usage).outputTokens).toBe(text.split(' ').length);
  });
});
