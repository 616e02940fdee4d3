import { GatewayError, type CanonicalRequest, type Message } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertAnthropicMessagesRequest } from './convert-anthropic-messages-request';
import { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request';

const MODEL = 'claude-sonnet-4-5-20250929';
const base: CanonicalRequest = { model: 'rosetta/x', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, routing: {} };

function encode(request: CanonicalRequest, defaultMaxTokens = 8192) {
  return convertToAnthropicMessagesRequest({ request, upstreamModel: MODEL, defaultMaxTokens });
}

const toolTurn = (thinking: Message['content'] = []): Message[] => [
  { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
  { role: 'assistant', content: [...(thinking as []), { type: 'tool_call', id: 't1', name: 'f', arguments: '{"a":1}' }] },
  { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: 'sunny' }] }] },
];

describe('convertToAnthropicMessagesRequest', () => {
  describe('fast path (the client spoke dialect B)', () => {
    it('forwards every field untouched except the model, stream and the routing fields', () => {
      const body = fixtureJson('dialect-b-request-full.json');
      const snapshot = structuredClone(body);
      const request = convertAnthropicMessagesRequest({ body }).value;
      const { value, warnings } = encode(request);
      expect(value).toEqual(fixtureJson('anthropic-upstream-request-fast-path.json'));
      expect(warnings).toEqual([]);
      expect(body).toEqual(snapshot);
    });

    it('turns streaming off when the caller fetches a whole answer', () => {
      const body = { model: 'rosetta/x', max_tokens: 5, messages: [], stream: true };
      const request: CanonicalRequest = { ...base, passthrough: { protocol: 'anthropic', body } };
      expect(encode(request).value).toEqual({ model: MODEL, max_tokens: 5, messages: [], stream: false });
    });
  });

  describe('canonical path', () => {
    it('rebuilds a dialect-B request from its canonical form, returning only Anthropic-signed thinking', () => {
      const { passthrough: _passthrough, ...request } = convertAnthropicMessagesRequest({ body: fixtureJson('dialect-b-request-full.json') }).value;
      const { value, warnings } = encode(request);
      expect(value).toEqual(fixtureJson('anthropic-upstream-request-rebuilt.json'));
      expect(warnings).toEqual([]);
    });

    it('encodes a request from another dialect: hoisting system, merging turns, results first, and warning', () => {
      const { value, warnings } = encode(fixtureJson<CanonicalRequest>('canonical-request-cross.json'), 8192);
      expect(value).toEqual(fixtureJson('anthropic-upstream-request-cross.json'));
      expect(warnings).toEqual([
        { feature: 'image', message: "An image of type 'image/heic' cannot be sent to Anthropic; dropped." },
        { feature: 'audio', message: 'Anthropic accepts no audio input; an audio part was dropped.' },
        { feature: 'document', message: "A document of type 'application/msword' cannot be sent to Anthropic; dropped." },
        { feature: 'system', message: 'The system message at messages[4] was moved to the top-level system prompt.' },
        {
          feature: 'thinking',
          message: 'The last tool-calling turn has no Anthropic-signed thinking, which Anthropic requires; thinking disabled.',
        },
        { feature: 'temperature', message: 'Anthropic takes a temperature from 0 to 1; 1.5 was clamped to 1.' },
        { feature: 'response_format', message: 'Anthropic has no JSON mode; the model was asked in the system prompt for JSON only.' },
        { feature: 'seed', message: 'Anthropic has no seed; dropped.' },
        { feature: 'frequency_penalty', message: 'Anthropic has no frequency penalty; dropped.' },
        { feature: 'presence_penalty', message: 'Anthropic has no presence penalty; dropped.' },
        { feature: 'candidate_count', message: 'Anthropic returns one candidate; only the first is produced.' },
      ]);
    });

    it('sends a minimal request with the default cap and nothing else', () => {
      expect(encode(base, 1024)).toEqual({
        value: { model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] },
        warnings: [],
      });
    });

    it('merges consecutive turns of one role and puts tool results first in the user turn around them', () => {
      const messages: Message[] = [
        { role: 'assistant', content: [{ type: 'tool_call', id: 'a', name: 'f', arguments: '{}' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'b', name: 'f', arguments: '{}' }] },
        { role: 'user', content: [{ type: 'text', text: 'before' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'a', content: [] }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'b', content: [], isError: true }] },
        { role: 'user', content: [{ type: 'text', text: 'after' }, { type: 'audio', data: 'x', format: 'wav' }] },
        { role: 'user', content: [{ type: 'text', text: '' }] },
        { role: 'assistant', content: [{ type: 'thinking', text: 'unsigned' }] },
        { role: 'user', content: [{ type: 'text', text: 'last' }] },
      ];
      expect(encode({ ...base, messages }).value['messages']).toEqual([
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'a', name: 'f', input: {} },
            { type: 'tool_use', id: 'b', name: 'f', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'a' },
            { type: 'tool_result', tool_use_id: 'b', is_error: true },
            { type: 'text', text: 'before' },
            { type: 'text', text: 'after' },
            { type: 'text', text: 'last' },
          ],
        },
      ]);
    });

    it.each([
      ['{"unterminated": ', 'messages[1].content[1]'],
      ['[1, 2]', 'messages[1].content[1]'],
      ['"text"', 'messages[1].content[1]'],
    ])('refuses tool-call arguments %s, naming %s, instead of sending {}', (args, param) => {
      const messages: Message[] = [
        { role: 'user', content: [{ type: 'text', text: 'Go' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Calling.' }, { type: 'tool_call', id: 'call_9', name: 'f', arguments: args }] },
      ];
      let caught: unknown;
      try {
        encode({ ...base, messages });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(GatewayError);
      expect(caught).toMatchObject({ type: 'invalid_request_error', status: 400, param });
      expect((caught as GatewayError).message).toBe(`The arguments of tool call 'call_9' at '${param}' are not a JSON object; Anthropic needs one.`);
    });
  });

  describe('thinking and sampling', () => {
    const thinkingOf = (request: Partial<CanonicalRequest>, defaultMaxTokens = 8192) => {
      const { value, warnings } = encode({ ...base, ...request }, defaultMaxTokens);
      const { model: _m, messages: _messages, ...rest } = value;
      return { body: rest, warnings: warnings.map((warning) => warning.feature) };
    };

    it.each([
      [{ enabled: true, budgetTokens: 3000 }, 3000],
      [{ enabled: true, effort: 'low' }, 1024],
      [{ enabled: true, effort: 'minimal' }, 1024],
      [{ enabled: true, effort: 'medium' }, 4096],
      [{ enabled: true, effort: 'high' }, 16384],
      [{ enabled: true, effort: 'xhigh' }, 16384],
      [{ enabled: true }, 4096],
      [{ enabled: true, budgetTokens: 2000, effort: 'high' }, 2000],
    ])('thinks with %j → budget %d', (thinking, budget) => {
      expect(thinkingOf({ thinking, maxOutputTokens: 32000 })).toEqual({
        body: { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: budget } },
        warnings: [],
      });
    });

    it('raises a budget below the minimum and a cap not above the budget, saying so', () => {
      expect(thinkingOf({ thinking: { enabled: true, budgetTokens: 500 }, maxOutputTokens: 1000 })).toEqual({
        body: { max_tokens: 2024, thinking: { type: 'enabled', budget_tokens: 1024 } },
        warnings: ['thinking', 'max_tokens'],
      });
      expect(encode({ ...base, thinking: { enabled: true, effort: 'high' } }, 8192).warnings).toEqual([
        { feature: 'max_tokens', message: 'max_tokens raised from 8192 to 24576 to exceed the thinking budget of 16384.' },
      ]);
    });

    it('drops temperature and top_k and raises top_p while thinking', () => {
      expect(thinkingOf({ thinking: { enabled: true, budgetTokens: 1024 }, maxOutputTokens: 4096, temperature: 0.3, topK: 5, topP: 0.5 })).toEqual({
        body: { max_tokens: 4096, thinking: { type: 'enabled', budget_tokens: 1024 }, top_p: 0.95 },
        warnings: ['temperature', 'top_k', 'top_p'],
      });
    });

    it('keeps sampling, and sends thinking disabled, when the client turned thinking off', () => {
      expect(thinkingOf({ thinking: { enabled: false, effort: 'none' }, temperature: 0.3, topK: 5, topP: 0.5 })).toEqual({
        body: { max_tokens: 8192, thinking: { type: 'disabled' }, temperature: 0.3, top_k: 5, top_p: 0.5 },
        warnings: [],
      });
      expect(thinkingOf({ temperature: -1 })).toEqual({ body: { max_tokens: 8192, temperature: 0 }, warnings: ['temperature'] });
    });

    it('turns thinking off when a tool call is forced', () => {
      const tools = [{ name: 'f' }];
      expect(thinkingOf({ thinking: { enabled: true, budgetTokens: 2048 }, tools, toolChoice: { type: 'tool', name: 'f' } })).toEqual({
        body: {
          max_tokens: 8192,
          thinking: { type: 'disabled' },
          tools: [{ name: 'f', input_schema: { type: 'object', properties: {} } }],
          tool_choice: { type: 'tool', name: 'f' },
        },
        warnings: ['thinking'],
      });
    });

    it('keeps thinking on when the last tool-calling turn starts with Anthropic-signed or redacted thinking', () => {
      const signed = { type: 'thinking' as const, text: 't', signature: { protocol: 'anthropic' as const, value: 'sig' } };
      const redacted = { type: 'redacted_thinking' as const, data: 'r', protocol: 'anthropic' as const };
      const foreign = { type: 'thinking' as const, text: 't', signature: { protocol: 'gemini' as const, value: 'g' } };
      const on = (thinking: Message['content']) => encode({ ...base, messages: toolTurn(thinking), thinking: { enabled: true, budgetTokens: 1024 } }).value['thinking'];
      expect(on([signed])).toEqual({ type: 'enabled', budget_tokens: 1024 });
      expect(on([redacted])).toEqual({ type: 'enabled', budget_tokens: 1024 });
      expect(on([foreign])).toEqual({ type: 'disabled' });
      expect(on([])).toEqual({ type: 'disabled' });
    });
  });

  describe('tools and output', () => {
    it.each([
      [{ parallelToolCalls: false }, { type: 'auto', disable_parallel_tool_use: true }],
      [{ toolChoice: { type: 'auto' } }, { type: 'auto' }],
      [{ toolChoice: { type: 'required' }, parallelToolCalls: false }, { type: 'any', disable_parallel_tool_use: true }],
      [{ toolChoice: { type: 'none' }, parallelToolCalls: false }, { type: 'none' }],
      [{ parallelToolCalls: true }, undefined],
    ])('maps %j to tool_choice %j', (settings, toolChoice) => {
      expect(encode({ ...base, tools: [{ name: 'f', parameters: { type: 'object' } }], ...(settings as Partial<CanonicalRequest>) }).value['tool_choice']).toEqual(toolChoice);
    });

    it('sends no tool_choice without tools, and a JSON schema as output_config', () => {
      const { value } = encode({ ...base, toolChoice: { type: 'required' }, parallelToolCalls: false, responseFormat: { type: 'json_schema', name: 'n', schema: { type: 'object' }, strict: true } });
      expect(value['tool_choice']).toBeUndefined();
      expect(value['output_config']).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    });

    it('sends media by file id and as plain text, titled by filename, with cache hints', () => {
      const messages: Message[] = [
        {
          role: 'user',
          content: [
            { type: 'image', source: { kind: 'file', fileId: 'file_1' }, cache: { type: 'ephemeral', ttl: '5m' } },
            { type: 'image', source: { kind: 'text', mediaType: 'text/plain', data: 'x' } },
            { type: 'document', source: { kind: 'file', fileId: 'file_2' }, filename: 'a.pdf', context: 'ctx', cache: { type: 'prompt_cache', ttl: '10m' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't', content: [{ type: 'text', text: 'r', cache: { type: 'ephemeral' } }] }] },
      ];
      const { value, warnings } = encode({ ...base, messages });
      expect(value['messages']).toEqual([
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'r', cache_control: { type: 'ephemeral' } }] },
            { type: 'image', source: { type: 'file', file_id: 'file_1' }, cache_control: { type: 'ephemeral', ttl: '5m' } },
            { type: 'document', source: { type: 'file', file_id: 'file_2' }, title: 'a.pdf', context: 'ctx', cache_control: { type: 'ephemeral' } },
          ],
        },
      ]);
      expect(warnings).toEqual([{ feature: 'image', message: "An image given as 'text' cannot be sent to Anthropic; dropped." }]);
    });
  });
});
