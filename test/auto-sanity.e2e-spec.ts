import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { loadPhrasings } from '../libs/mixture-lab/src/phrasings';
import { catalogCandidates, loadSanitySet, tierOf, type SanityPrompt, type Tier } from '../libs/mixture-lab/src/sanity';
import { startStack, type Stack } from './support/stack';

/**
 * rosetta/auto on the routing sanity set (libs/mixture-lab/sanity), live: every prompt explained by
 * POST /v1/route in the body of each dialect, and a sample of them sent through the official SDKs,
 * whose served model must be the one the explanation chose and sit in the tier the label asks for.
 */
describe('rosetta/auto on the routing sanity set, in all three dialects', () => {
  let stack: Stack;
  const prompts = loadSanitySet();
  const pool = catalogCandidates();
  const tier = (model: string): Tier => tierOf(pool.find((c) => c.id === model));
  // Every sixth prompt: 13 of 74, both labels and most categories, long ones included.
  const sample = prompts.filter((_, i) => i % 6 === 0);

  beforeAll(async () => {
    stack = await startStack();
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const bodies: Record<string, (p: Pick<SanityPrompt, 'prompt'>) => Record<string, unknown>> = {
    openai: (p) => ({ model: 'rosetta/auto', messages: [{ role: 'user', content: p.prompt }] }),
    anthropic: (p) => ({ model: 'rosetta/auto', max_tokens: 1024, messages: [{ role: 'user', content: p.prompt }] }),
    gemini: (p) => ({ model: 'rosetta/auto', contents: [{ role: 'user', parts: [{ text: p.prompt }] }] }),
  };

  const explain = async (dialect: string, p: Pick<SanityPrompt, 'prompt'>): Promise<{ chosen: string; dialect: string; decision: { signals: Array<{ name: string; value: unknown }> } }> => {
    const res = await fetch(`${stack.gateway.url}/v1/route?dialect=${dialect}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(bodies[dialect]!(p)),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { chosen: string; dialect: string; decision: { signals: Array<{ name: string; value: unknown }> } };
  };

  const agreement = (pairs: Array<[SanityPrompt, string]>): number => pairs.filter(([p, model]) => tier(model) === p.label).length / pairs.length;

  it.each(Object.keys(bodies))('POST /v1/route in the %s dialect agrees with ≥ 90% of the labels, and sends greetings cheap and proofs strong', async (dialect) => {
    const chosen: Array<[SanityPrompt, string]> = [];
    for (const p of prompts) {
      const body = await explain(dialect, p);
      expect(body.dialect).toBe(dialect);
      chosen.push([p, body.chosen]);
    }
    expect(agreement(chosen)).toBeGreaterThanOrEqual(0.9);
    const of = (id: string) => tier(chosen.find(([p]) => p.id === id)![1]);
    // "Hello!", "Hi", the capital of Australia, miles to kilometres, a ZIP-code regex; two proofs.
    expect(['s01', 's02', 's07', 's19', 's39', 's45', 's46'].map(of)).toEqual(['cheap', 'cheap', 'cheap', 'cheap', 'cheap', 'strong', 'strong']);
  });

  it('serves a sample through the official SDKs with the model the explanation chose, in the labelled tier', async () => {
    const openai = new OpenAI({ apiKey: stack.key, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const anthropic = new Anthropic({ apiKey: stack.key, baseURL: stack.gateway.url, maxRetries: 0 });
    const gemini = new GoogleGenAI({ apiKey: stack.key, httpOptions: { baseUrl: stack.gateway.url, fetch: (input, init) => fetch(input, init) } });
    const served: Record<string, Array<[SanityPrompt, string]>> = { openai: [], anthropic: [], gemini: [] };
    for (const p of sample) {
      const a = await openai.chat.completions.create({ model: 'rosetta/auto', messages: [{ role: 'user', content: p.prompt }] });
      const b = await anthropic.messages.stream({ model: 'rosetta/auto', max_tokens: 1024, messages: [{ role: 'user', content: p.prompt }] }).finalMessage();
      const c = await gemini.models.generateContent({ model: 'rosetta/auto', contents: p.prompt });
      served['openai']!.push([p, a.model]);
      served['anthropic']!.push([p, b.model]);
      served['gemini']!.push([p, c.modelVersion!]);
    }
    for (const [dialect, pairs] of Object.entries(served)) {
      for (const [p, model] of pairs) expect([p.id, model]).toEqual([p.id, (await explain(dialect, p)).chosen]);
      expect(agreement(pairs)).toBeGreaterThanOrEqual(0.9);
    }
  });

  // libs/mixture-lab/sanity/routing-phrasings.jsonl: "…, step by step", "Explain your reasoning", "Please",
  // "Can you …", "You are a helpful assistant.", thanks, other casing and punctuation.
  it.each(Object.keys(bodies))('routes every rewording of a task as its plain prompt (category and model) in the %s dialect', async (dialect) => {
    const routeOf = async (prompt: string) => {
      const body = await explain(dialect, { prompt });
      return { category: body.decision.signals.find((s) => s.name === 'category')?.value, chosen: body.chosen };
    };
    for (const group of loadPhrasings()) {
      const plain = await routeOf(group.prompt);
      expect({ id: group.id, category: plain.category }).toEqual({ id: group.id, category: group.category });
      const variants: Array<{ prompt: string; route: unknown }> = [];
      for (const prompt of group.variants) variants.push({ prompt, route: await routeOf(prompt) });
      expect(variants).toEqual(group.variants.map((prompt) => ({ prompt, route: plain })));
    }
    // The example, live: the proof goes to o4-mini as maths, with or without "step by step".
    expect(await routeOf('Prove that the square root of 2 is irrational, step by step.')).toEqual({ category: 'math', chosen: 'rosetta/o4-mini' });
  });
});
