import { createHmac } from 'node:crypto';
import { tokenize } from './reply-limits';
import { latestClientTurnText, planReply, type NeutralRequest, type ScriptSource, type SimReply } from './reply-plan';
import { ScriptBook } from './script-book';
import { thinkingSignature, verifyThinkingSignature } from './signatures';
import { synthesiseArguments } from './synthesise-arguments';

const NO_SCRIPTS: ScriptSource = { take: () => undefined };

function request(overrides: Partial<NeutralRequest> = {}): NeutralRequest {
  return {
    model: 'sim',
    messages: [{ role: 'user', text: 'hello world' }],
    tools: [],
    toolChoice: 'none',
    stream: false,
    ...overrides,
  };
}

function scripted(reply: SimReply): ScriptSource {
  return { take: () => reply };
}

describe('tokenize', () => {
  it('splits into words that keep their following whitespace and rejoin exactly', () => {
    expect(tokenize('  a b\n\nc  ')).toEqual(['  a ', 'b\n\n', 'c  ']);
    expect(tokenize('')).toEqual([]);
    expect(tokenize('one').join('')).toBe('one');
  });
});

describe('synthesiseArguments', () => {
  it('fills required properties by type, recursing into nested objects', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        unit: { type: 'string', enum: ['c', 'f'] },
        nested: { type: 'object', properties: { deep: { type: ['string', 'null'] }, skip: { type: 'string' } }, required: ['deep'] },
        optional: { type: 'string' },
      },
      required: ['name', 'count', 'ratio', 'on', 'tags', 'unit', 'nested'],
    };
    expect(synthesiseArguments(schema)).toEqual({
      name: 'example',
      count: 1,
      ratio: 1,
      on: true,
      tags: [],
      unit: 'c',
      nested: { deep: 'example' },
    });
  });

  it('uses every property when `required` is absent and {} without a schema', () => {
    expect(synthesiseArguments({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } })).toEqual({ a: 'example', b: 1 });
    expect(synthesiseArguments(undefined)).toEqual({});
  });
});

describe('planReply', () => {
  it('prefers a script over a directive, and a directive over defaults', () => {
    const withDirective = request({ messages: [{ role: 'user', text: '<sim>{"text":"from directive"}</sim>' }] });
    expect(planReply(withDirective, scripted({ text: 'from script' }))).toEqual(expect.objectContaining({ source: 'script', text: 'from script' }));
    expect(planReply(withDirective, NO_SCRIPTS)).toEqual(expect.objectContaining({ source: 'directive', text: 'from directive' }));
    expect(planReply(request(), NO_SCRIPTS)).toEqual(expect.objectContaining({ source: 'default', text: 'Simulated reply from sim: hello world' }));
  });

  it('matches scripts against the latest client turn only', () => {
    const book = new ScriptBook();
    book.add({ match: 'marker-p1', reply: { text: 'hit' } });
    const earlier = request({ messages: [{ role: 'user', text: 'marker-p1' }, { role: 'assistant', text: 'ok' }, { role: 'user', text: 'next' }] });
    expect(planReply(earlier, book).source).toBe('default');
    const latest = request({ messages: [{ role: 'user', text: 'next marker-p1' }, { role: 'assistant', text: 'prefill' }] });
    expect(planReply(latest, book).text).toBe('hit');
  });

  it('treats trailing tool results as the latest turn, so a tool-calling directive is not replayed', () => {
    const messages = request({
      messages: [
        { role: 'user', text: '<sim>{"toolCalls":[{"name":"t","arguments":{}}]}</sim>' },
        { role: 'assistant', text: '', toolCallIds: ['c1'] },
        { role: 'tool', text: '', toolResults: [{ toolCallId: 'c1', text: 'sunny' }] },
      ],
    }).messages;
    expect(latestClientTurnText(messages)).toBe('sunny');
    const plan = planReply(request({ messages }), NO_SCRIPTS);
    expect(plan).toEqual(expect.objectContaining({ source: 'default', text: 'Tool results received: sunny', toolCalls: [], finish: 'stop' }));
  });

  it('computes usage: input from characters, output from words, tool JSON and thinking', () => {
    const plan = planReply(
      request({ messages: [{ role: 'system', text: 'abcd' }, { role: 'user', text: 'efghi' }] }),
      scripted({ text: 'two words', thinking: { text: 'a b c', signature: 'sig' }, toolCalls: [{ name: 't', arguments: { k: 'v' } }] }),
    );
    expect(plan.usage).toEqual({ input: 3, output: 2 + 3 + Math.ceil('{"k":"v"}'.length / 4), cached: 0, reasoning: 3 });
    expect(plan.finish).toBe('tool_calls');
  });

  it('spends max tokens on thinking, then text, then whole tool calls', () => {
    const reply: SimReply = { thinking: { text: 'a b' }, text: 'c d e', toolCalls: [{ name: 't', arguments: {} }] };
    const cut = planReply(request({ maxTokens: 3 }), scripted(reply));
    expect(cut).toEqual(expect.objectContaining({ text: 'c ', toolCalls: [], finish: 'length' }));
    expect(cut.usage).toEqual(expect.objectContaining({ output: 3, reasoning: 2 }));
    const noTool = planReply(request({ maxTokens: 5 }), scripted(reply));
    expect(noTool).toEqual(expect.objectContaining({ text: 'c d e', toolCalls: [], finish: 'length' }));
    const fits = planReply(request({ maxTokens: 6 }), scripted(reply));
    expect(fits).toEqual(expect.objectContaining({ toolCalls: [{ name: 't', arguments: {} }], finish: 'tool_calls' }));
  });

  it('cuts at the earliest stop sequence and reports stop_sequence with the sequence', () => {
    const plan = planReply(request({ stopSequences: ['Z', 'y'] }), scripted({ text: 'x y z Z' }));
    expect(plan).toEqual(expect.objectContaining({ text: 'x ', finish: 'stop_sequence', stopSequence: 'y' }));
  });

  it('calls the offered tool the user asks for when the choice is left to it, and answers in text otherwise', () => {
    const weather = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } };
    const tools = [{ name: 'readFile' }, weather];
    const asked = planReply(request({ tools, toolChoice: 'auto', messages: [{ role: 'user', text: "What's the weather in Oslo?" }] }), NO_SCRIPTS);
    expect(asked.toolCalls).toEqual([expect.objectContaining({ name: 'get_weather', arguments: { city: 'example' } })]);
    // Camel-case names split too; a word must be whole and four letters or more.
    expect(planReply(request({ tools, toolChoice: 'auto', messages: [{ role: 'user', text: 'please READ it' }] }), NO_SCRIPTS).toolCalls[0]?.name).toBe('readFile');
    expect(planReply(request({ tools, toolChoice: 'auto', messages: [{ role: 'user', text: 'weatherproof boots' }] }), NO_SCRIPTS).toolCalls).toEqual([]);
    expect(planReply(request({ tools, toolChoice: 'none', messages: [{ role: 'user', text: 'the weather?' }] }), NO_SCRIPTS).toolCalls).toEqual([]);
    // After the results come back, it answers in text: the loop ends.
    const done = planReply(
      request({ tools, toolChoice: 'auto', messages: [{ role: 'user', text: 'the weather?' }, { role: 'assistant', text: '' }, { role: 'tool', text: '', toolResults: [{ toolCallId: 'c1', text: '{"temp_c":3}' }] }] as NeutralRequest['messages'] }),
      NO_SCRIPTS,
    );
    expect(done.toolCalls).toEqual([]);
    expect(done.text).toBe('Tool results received: {"temp_c":3}');
  });

  it('turns an unreadable directive into a 400 plan error', () => {
    const plan = planReply(request({ messages: [{ role: 'user', text: '<sim>{not json}</sim>' }] }), NO_SCRIPTS);
    expect(plan.error).toEqual({ status: 400, message: expect.stringMatching(/^Invalid <sim> directive: /) });
  });
});

describe('default thinking', () => {
  const thinkingRequest = (overrides: Partial<NeutralRequest> = {}): NeutralRequest =>
    request({ thinkingEnabled: true, messages: [{ role: 'user', text: 'a b c d e f g h i j' }], ...overrides });

  it('thinks "Considering: <first 8 words of the last user text>" when the request enables thinking', () => {
    const plan = planReply(thinkingRequest(), NO_SCRIPTS);
    expect(plan.thinking).toEqual({ text: 'Considering: a b c d e f g h' });
    expect(plan.usage).toEqual(expect.objectContaining({ reasoning: 9, output: 9 + 14 }));
    expect(planReply(request(), NO_SCRIPTS).thinking).toBeUndefined();
  });

  it('keeps scripted thinking, adds default thinking to a scripted reply without it, and none to errors', () => {
    expect(planReply(thinkingRequest(), scripted({ text: 'x', thinking: { text: 'mine', signature: 's' } })).thinking).toEqual({ text: 'mine', signature: 's' });
    expect(planReply(thinkingRequest(), scripted({ text: 'x' })).thinking).toEqual({ text: 'Considering: a b c d e f g h' });
    expect(planReply(thinkingRequest(), scripted({ error: { status: 500, message: 'x' } })).thinking).toBeUndefined();
  });

  it('uses the last user text on a tool-result follow-up', () => {
    const messages: NeutralRequest['messages'] = [
      { role: 'user', text: 'weather please' },
      { role: 'assistant', text: '', toolCallIds: ['c1'] },
      { role: 'tool', text: '', toolResults: [{ toolCallId: 'c1', name: 'get_weather', text: 'sunny' }] },
    ];
    expect(planReply(thinkingRequest({ messages }), NO_SCRIPTS)).toEqual(
      expect.objectContaining({ text: 'Tool results received: sunny', thinking: { text: 'Considering: weather please' } }),
    );
  });
});

describe('thinking signatures', () => {
  it('are base64 HMAC-SHA256 over protocol:text with the fixed secret, and verify only unchanged', () => {
    const expected = createHmac('sha256', 'rosetta-simulator').update('anthropic:I think.').digest('base64');
    expect(thinkingSignature('anthropic', 'I think.')).toBe(expected);
    expect(verifyThinkingSignature('anthropic', 'I think.', expected)).toBe(true);
    expect(verifyThinkingSignature('anthropic', 'I think!', expected)).toBe(false);
    expect(verifyThinkingSignature('gemini', 'I think.', expected)).toBe(false);
    expect(verifyThinkingSignature('anthropic', 'I think.', `${expected.slice(0, -2)}A=`)).toBe(false);
    expect(verifyThinkingSignature('anthropic', 'I think.', 'short')).toBe(false);
  });
});

describe('synthesiseArguments with Gemini schemas', () => {
  it('reads capitalised OpenAPI types', () => {
    expect(synthesiseArguments({ type: 'OBJECT', properties: { city: { type: 'STRING' }, n: { type: 'INTEGER' } } })).toEqual({ city: 'example', n: 1 });
  });
});

describe('model-scoped scripts', () => {
  it('answer only requests for their model', async () => {
    const { ScriptBook } = await import('./script-book');
    const book = new ScriptBook();
    book.add({ match: 'q', reply: { text: 'A' }, model: 'small' });
    book.add({ match: 'q', reply: { text: 'B' }, model: 'large' });
    expect(book.take('the q', 'small')).toEqual({ text: 'A' });
    expect(book.take('the q', 'large')).toEqual({ text: 'B' });
    expect(book.take('the q', 'other')).toBeUndefined();
  });
});

describe('planReply with a prompt cache', () => {
  const outcome = { read: 1024, write: { fiveMinute: 300, oneHour: 100 } };
  const long = request({ messages: [{ role: 'user', text: 'x'.repeat(6000) }] });

  it('reports what the cache read and wrote as part of the input', () => {
    const plan = planReply(long, NO_SCRIPTS, () => outcome);
    expect([plan.usage.input, plan.usage.cached, plan.cacheWrite]).toEqual([1500, 1024, { fiveMinute: 300, oneHour: 100 }]);
    const untouched = planReply(long, NO_SCRIPTS, () => ({ read: 0, write: { fiveMinute: 0, oneHour: 0 } }));
    expect([untouched.usage.cached, 'cacheWrite' in untouched]).toEqual([0, false]);
  });

  it('a scripted cached or input wins over the cache, which still sees the request', () => {
    let lookups = 0;
    const cache = () => {
      lookups += 1;
      return outcome;
    };
    const cachedScripted = planReply(long, scripted({ text: 'a', usage: { cached: 40 } }), cache);
    expect([cachedScripted.usage.input, cachedScripted.usage.cached, cachedScripted.cacheWrite]).toEqual([1500, 40, undefined]);
    const inputScripted = planReply(long, scripted({ text: 'a', usage: { input: 100 } }), cache);
    expect([inputScripted.usage.input, inputScripted.usage.cached, inputScripted.cacheWrite]).toEqual([100, 0, undefined]);
    const outputScripted = planReply(long, scripted({ text: 'a', usage: { output: 9 } }), cache);
    expect([outputScripted.usage.output, outputScripted.usage.cached]).toEqual([9, 1024]);
    expect(lookups).toBe(3);
  });

  it('an error reply never reaches the cache', () => {
    let lookups = 0;
    const plan = planReply(long, scripted({ error: { status: 529, message: 'Overloaded' } }), () => {
      lookups += 1;
      return outcome;
    });
    expect([plan.error?.status, plan.usage.cached, lookups]).toEqual([529, 0, 0]);
  });
});
