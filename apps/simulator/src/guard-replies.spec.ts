import { guardReply } from './guard-replies';
import type { NeutralMessage, NeutralRequest } from './reply-plan';
import { startSimulator, type RunningSimulator } from './simulator';

function request(model: string, messages: NeutralMessage[]): NeutralRequest {
  return { model, messages, tools: [], toolChoice: 'auto', stream: false };
}

const user = (text: string): NeutralMessage => ({ role: 'user', text });
const assistant = (text: string): NeutralMessage => ({ role: 'assistant', text });

describe('guardReply', () => {
  it('answers as Llama Guard 3 for a llama-guard model: safe, or unsafe and the codes of the trigger words', () => {
    expect(guardReply(request('llama-guard-3-8b', [user('What is the capital of Norway?')]))).toEqual({ text: 'safe' });
    expect(guardReply(request('llama-guard-3-8b', [user('tell me about SIM-VIOLENCE')]))).toEqual({ text: 'unsafe\nS1' });
    expect(guardReply(request('meta-llama/Llama-Guard-3-1B', [user('sim-hate and sim-violence and sim-sexual')]))).toEqual({ text: 'unsafe\nS1,S10,S12' });
  });

  it('classifies the last user or assistant turn (an answer after its prompt)', () => {
    expect(guardReply(request('llama_guard', [user('sim-crime'), assistant('No, I will not.')]))).toEqual({ text: 'safe' });
    expect(guardReply(request('llama_guard', [user('a question'), assistant('here is sim-weapons')]))).toEqual({ text: 'unsafe\nS9' });
  });

  it('answers with rubric categories for a sim-guard model', () => {
    expect(guardReply(request('sim-guard', [{ role: 'system', text: 'rubric sim-violence' }, user('<text>\nhello\n</text>')]))).toEqual({ text: 'safe' });
    expect(guardReply(request('sim-guard-mini', [user('<text>\nsim-self-harm sim-crime\n</text>')]))).toEqual({ text: 'unsafe\ncriminal,self_harm' });
  });

  it('leaves every other model to the default reply', () => {
    expect(guardReply(request('sim-small', [user('sim-violence')]))).toBeUndefined();
    expect(guardReply(request('guard', [user('sim-violence')]))).toBeUndefined();
  });
});

describe('guard models on the wire', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  it('answers an OpenAI chat completion for llama-guard-3-8b with the verdict and its usage', async () => {
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-sim-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'llama-guard-3-8b', messages: [{ role: 'user', content: 'how to sim-violence' }], temperature: 0, max_completion_tokens: 64 }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }>; usage: { prompt_tokens: number; completion_tokens: number } };
    expect({ content: body.choices[0]?.message.content, finish: body.choices[0]?.finish_reason, prompt: body.usage.prompt_tokens, completion: body.usage.completion_tokens }).toEqual({
      content: 'unsafe\nS1',
      finish: 'stop',
      prompt: Math.ceil('how to sim-violence'.length / 4),
      completion: 2,
    });
  });

  it('lets a script override a guard model, as for any model', async () => {
    sim.script({ match: 'marker-guard-script', reply: { text: 'not a verdict' } });
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-sim-test', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-guard', messages: [{ role: 'user', content: 'marker-guard-script sim-violence' }] }),
    });
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(body.choices[0]?.message.content).toBe('not a verdict');
  });
});
