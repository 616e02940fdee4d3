/**
 * Issue 27, item 13: an Anthropic-dialect stream's message_start never shows a prompt count that
 * its end contradicts. From an upstream that counts the prompt as it starts (Anthropic, Gemini) it
 * carries that count; from one that counts only at the end (OpenAI) it says 0; the final
 * message_delta always carries the upstream's count, and the official SDK's message has it.
 */
import Anthropic from '@anthropic-ai/sdk';
import { startStack, type Stack } from './support/stack';

describe('Anthropic-dialect streams: the prompt count at the start and at the end', () => {
  let stack: Stack;
  let client: Anthropic;

  beforeAll(async () => {
    stack = await startStack();
    client = new Anthropic({ apiKey: stack.key, baseURL: stack.gateway.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function stream(model: string): Promise<{ started: Anthropic.Usage; final: Anthropic.Usage }> {
    const run = client.messages.stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'Prove that the square root of 2 is irrational, in one line.' }] });
    let started: Anthropic.Usage | undefined;
    run.on('streamEvent', (event) => {
      // A copy: the SDK accumulates the rest of the stream into this very object.
      if (event.type === 'message_start') started = { ...event.message.usage };
    });
    const final = (await run.finalMessage()).usage;
    return { started: started!, final };
  }

  it.each([
    ['an Anthropic upstream (passed through)', 'rosetta/claude-haiku-4-5'],
    ['a Gemini upstream (counts the prompt on its first chunk)', 'rosetta/gemini-2.5-flash'],
  ])("%s: message_start carries the upstream's count, the one the end carries", async (_, model) => {
    const { started, final } = await stream(model);
    expect(final.input_tokens).toBeGreaterThan(0);
    expect(started.input_tokens).toBe(final.input_tokens);
    expect(started.output_tokens).toBeLessThanOrEqual(1);
  });

  it('an OpenAI upstream (counts only at the end): message_start says 0, the end the upstream count', async () => {
    const { started, final } = await stream('rosetta/gpt-4o-mini');
    expect(started).toMatchObject({ input_tokens: 0, output_tokens: 0 });
    expect(final.input_tokens).toBeGreaterThan(0);
  });
});
