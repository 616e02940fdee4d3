import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from './simulator';

// OpenAI's automatic prompt caching as the official SDK sees it, with no gateway between: long
// prompts read the prefix an earlier prompt of the same prompt_cache_key left, in 128-token
// increments, on Chat Completions (streamed too) and the Responses API.
describe('the OpenAI prompt cache through the official SDK', () => {
  /** 1,400 tokens under the simulator's estimate (four characters a token). */
  const LONG_SYSTEM = 'You are a careful coding agent.\n'.repeat(175);
  let sim: RunningSimulator;
  let client: OpenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-cache', maxRetries: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });
  beforeEach(() => sim.reset());

  const chat = (question: string, extra: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming> = {}) =>
    client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'system', content: LONG_SYSTEM }, { role: 'user', content: question }], ...extra });

  it('the second call with the same prompt_cache_key reads the shared prefix in 128-token increments', async () => {
    const first = await chat('First question about the repository', { prompt_cache_key: 'session-1' });
    const second = await chat('Second question, a different one', { prompt_cache_key: 'session-1' });
    expect(first.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    expect(second.usage).toEqual(expect.objectContaining({ prompt_tokens: 1408, prompt_tokens_details: { cached_tokens: 1280, audio_tokens: 0 } }));
  });

  it('another prompt_cache_key, or another API key, does not meet the cached prompt', async () => {
    await chat('Same question, asked twice in this session', { prompt_cache_key: 'session-a' });
    expect((await chat('Same question, asked twice in this session', { prompt_cache_key: 'session-b' })).usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const stranger = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-someone-else', maxRetries: 0 });
    const theirs = await stranger.chat.completions.create({ model: 'gpt-4o', prompt_cache_key: 'session-a', messages: [{ role: 'system', content: LONG_SYSTEM }, { role: 'user', content: 'Same question, asked twice in this session' }] });
    expect(theirs.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    expect((await chat('Same question, asked twice in this session', { prompt_cache_key: 'session-a' })).usage?.prompt_tokens_details?.cached_tokens).toBe(1408);
  });

  it('without a key, prompts with the same prefix still meet; short prompts are never cached', async () => {
    await chat('No key at all, the same prompt prefix twice');
    expect((await chat('No key at all, the same prompt prefix twice')).usage?.prompt_tokens_details?.cached_tokens).toBe(1408);
    const short = () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'A short prompt.' }] });
    await short();
    expect((await short()).usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it('a streamed completion reports the cached tokens in its usage chunk', async () => {
    await chat('Stream after me, the same prompt once more', { prompt_cache_key: 'stream' });
    const stream = client.chat.completions.stream({
      model: 'gpt-4o',
      prompt_cache_key: 'stream',
      stream_options: { include_usage: true },
      messages: [{ role: 'system', content: LONG_SYSTEM }, { role: 'user', content: 'Stream after me, the same prompt once more' }],
    });
    expect((await stream.finalChatCompletion()).usage?.prompt_tokens_details?.cached_tokens).toBe(1408);
  });

  it('the Responses API reports it as input_tokens_details.cached_tokens', async () => {
    const ask = (input: string) => client.responses.create({ model: 'gpt-5', instructions: LONG_SYSTEM, input, prompt_cache_key: 'codex-session' });
    expect((await ask('First turn')).usage?.input_tokens_details.cached_tokens).toBe(0);
    const second = await ask('Second turn');
    expect(second.usage).toEqual(expect.objectContaining({ input_tokens: 1403, input_tokens_details: { cached_tokens: 1280 } }));
  });

  it('refuses a prompt_cache_retention OpenAI does not offer', async () => {
    const request = chat('Retention', { prompt_cache_retention: 'forever' as unknown as '24h' });
    await expect(request).rejects.toMatchObject({ status: 400, param: 'prompt_cache_retention' });
  });
});
