import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayError, type CanonicalRequest, type Message } from '@rosetta/canonical';
import { wrapCallSignature } from '@rosetta/protocols/common';
import { convertToBedrockConverseRequest } from './convert-to-bedrock-converse-request';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const LLAMA = 'meta.llama3-3-70b-instruct-v1:0';
const CACHE_POINT = { cachePoint: { type: 'default' } };
const base: CanonicalRequest = { model: 'rosetta/x', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }], stream: false, routing: {} };

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(__dirname, '__fixtures__', name), 'utf8')) as T;
}

function encode(request: CanonicalRequest, upstreamModel = CLAUDE, reasoning: boolean | undefined = true) {
  return convertToBedrockConverseRequest({ request, upstreamModel, reasoning, defaultMaxTokens: 8192 });
}

const weatherTool = { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

/** A tool-calling turn and its result, the assistant turn opening with `opening`. */
const toolTurn = (opening: Extract<Message, { role: 'assistant' }>['content'] = []): Message[] => [
  { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
  { role: 'assistant', content: [...opening, { type: 'tool_call', id: 't1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
  { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', toolName: 'get_weather', content: [{ type: 'text', text: 'sunny' }] }] },
];

describe('convertToBedrockConverseRequest', () => {
  it('builds a whole conversation: system hoisted, turns merged and alternating, media as bytes, tool calls and results, cache points', () => {
    const { value, warnings } = encode(fixture('canonical-request-conversation.json'));
    expect(value).toEqual(fixture('bedrock-request-conversation.json'));
    expect(warnings).toEqual([{ feature: 'system', message: 'The system message at messages[6] was moved to the top-level system prompt.' }]);
  });

  it('hoists system text, keeps turns alternating with tool results first, and puts a cachePoint after each cache hint', () => {
    const { value, warnings } = encode({
      ...base,
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache: { type: 'ephemeral' } }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'tooluse_1', name: 'get_weather', arguments: '{"city":"Oslo"}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'tooluse_1', content: [{ type: 'text', text: '4°C' }], isError: true }] },
        { role: 'user', content: [{ type: 'text', text: 'And tomorrow?', cache: { type: 'ephemeral' } }] },
      ],
      tools: [{ name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      toolChoice: { type: 'required' },
      maxOutputTokens: 300,
      temperature: 0.2,
      stopSequences: ['END'],
    });
    expect(value).toEqual({
      system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
      messages: [
        { role: 'user', content: [{ text: 'Weather?' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Oslo' } } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: '4°C' }], status: 'error' } }, { text: 'And tomorrow?' }, { cachePoint: { type: 'default' } }] },
      ],
      inferenceConfig: { maxTokens: 300, temperature: 0.2, stopSequences: ['END'] },
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } } } } } }], toolChoice: { any: {} } },
    });
    expect(warnings).toEqual([]);
  });

  it('images go as bytes; a URL image, audio and a JSON mode are said, not silently lost', () => {
    const { value, warnings } = encode({
      ...base,
      responseFormat: { type: 'json_object' },
      messages: [{ role: 'user', content: [
        { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' } },
        { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } },
        { type: 'audio', data: 'UklG', format: 'wav' },
        { type: 'text', text: 'Describe' },
      ] }],
    });
    expect((value['messages'] as { content: unknown[] }[])[0]!.content).toEqual([{ image: { format: 'png', source: { bytes: 'iVBOR' } } }, { text: 'Describe' }]);
    expect(value['system']).toEqual([{ text: expect.stringContaining('single valid JSON object') }]);
    expect(warnings.map((w) => w.feature)).toEqual(['image', 'audio', 'response_format']);
  });

  describe('cache points', () => {
    it('follow the part that carries the hint, in system, user content, media and tool results', () => {
      const request: CanonicalRequest = {
        ...base,
        tools: [weatherTool],
        messages: [
          { role: 'system', content: [{ type: 'text', text: 'Rules.', cache: { type: 'ephemeral' } }] },
          ...toolTurn(),
          { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't2', content: [{ type: 'text', text: 'x' }], cache: { type: 'ephemeral' } }] },
          { role: 'user', content: [{ type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBERi0=' }, filename: 'Q3 report (final).pdf', cache: { type: 'ephemeral' } }] },
        ],
      };
      const { value } = encode(request);
      expect(value['system']).toEqual([{ text: 'Rules.' }, CACHE_POINT]);
      expect((value['messages'] as unknown[])[2]).toEqual({
        role: 'user',
        content: [
          { toolResult: { toolUseId: 't1', content: [{ text: 'sunny' }] } },
          { toolResult: { toolUseId: 't2', content: [{ text: 'x' }] } },
          CACHE_POINT,
          { document: { format: 'pdf', name: 'Q3 report (final) pdf', source: { bytes: 'JVBERi0=' } } },
          CACHE_POINT,
        ],
      });
    });

    it('are not placed for a part that was dropped', () => {
      const request: CanonicalRequest = { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'See' }, { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' }, cache: { type: 'ephemeral' } }] }] };
      const { value, warnings } = encode(request);
      expect(value['messages']).toEqual([{ role: 'user', content: [{ text: 'See' }] }]);
      expect(warnings).toEqual([{ feature: 'image', message: 'An image given as a URL cannot be sent to Bedrock Converse, which takes png, jpeg, gif or webp bytes; dropped.' }]);
    });
  });

  describe('reasoning sent back', () => {
    const opening = (content: Extract<Message, { role: 'assistant' }>['content']) => (encode({ ...base, tools: [weatherTool], messages: toolTurn(content) }).value['messages'] as { content: unknown[] }[])[1]!.content[0];

    it('goes back as reasoningContent only when Bedrock signed it', () => {
      expect(opening([{ type: 'thinking', text: 'hmm', signature: { protocol: 'bedrock-converse', value: 'sig-b' } }])).toEqual({ reasoningContent: { reasoningText: { text: 'hmm', signature: 'sig-b' } } });
      expect(opening([{ type: 'redacted_thinking', data: 'ZW5j', protocol: 'bedrock-converse' }])).toEqual({ reasoningContent: { redactedContent: 'ZW5j' } });
    });

    it("leaves out another provider's reasoning, unsigned reasoning and a call signature's carrier", () => {
      const call = { toolUse: { toolUseId: 't1', name: 'get_weather', input: { city: 'Oslo' } } };
      expect(opening([{ type: 'thinking', text: 'a', signature: { protocol: 'anthropic', value: 'sig-a' } }])).toEqual(call);
      expect(opening([{ type: 'thinking', text: 'b' }])).toEqual(call);
      expect(opening([{ type: 'redacted_thinking', data: 'x', protocol: 'anthropic' }])).toEqual(call);
      const carrier = wrapCallSignature({ protocol: 'gemini', value: 'g' });
      expect(opening([{ type: 'thinking', text: '', signature: { protocol: 'bedrock-converse', value: carrier } }])).toEqual(call);
    });
  });

  describe('tools', () => {
    it.each([
      [{ type: 'required' } as const, { any: {} }],
      [{ type: 'tool', name: 'get_weather' } as const, { tool: { name: 'get_weather' } }],
      [undefined, undefined],
    ])('maps tool_choice %j', (toolChoice, expected) => {
      const { value } = encode({ ...base, tools: [weatherTool], toolChoice }, LLAMA);
      expect((value['toolConfig'] as Record<string, unknown>)['toolChoice']).toEqual(expected);
    });

    it('leaves the tools out for tool_choice none, and tells earlier calls and results as text, which Bedrock then accepts', () => {
      const { value, warnings } = encode({ ...base, tools: [weatherTool], toolChoice: { type: 'none' }, messages: toolTurn() }, LLAMA);
      expect(value).toEqual({
        messages: [
          { role: 'user', content: [{ text: 'Weather?' }] },
          { role: 'assistant', content: [{ text: '[Called tool get_weather (call t1) with {"city":"Oslo"}]' }] },
          { role: 'user', content: [{ text: '[Result of tool call t1 (get_weather): sunny]' }] },
        ],
      });
      expect(warnings).toEqual([{ feature: 'tools', message: 'Bedrock Converse refuses tool calls and results in a request that sends no tools; they were given to the model as text.' }]);
    });

    it('sends no toolConfig and no warning when there are neither tools nor tool history', () => {
      expect(encode({ ...base, tools: [weatherTool], toolChoice: { type: 'none' } }, LLAMA)).toEqual({ value: { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }, warnings: [] });
    });

    it('says what it cannot honour: strict schemas, one call at a time', () => {
      const { warnings } = encode({ ...base, tools: [{ ...weatherTool, strict: true }], parallelToolCalls: false }, LLAMA);
      expect(warnings.map((w) => w.feature)).toEqual(['parallel_tool_calls', 'strict']);
    });

    it('gives a tool result with no content a word, as Bedrock refuses blank text', () => {
      const messages = toolTurn();
      messages[2] = { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't1', content: [{ type: 'text', text: ' ' }] }] };
      expect((encode({ ...base, tools: [weatherTool], messages }).value['messages'] as unknown[])[2]).toEqual({ role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: '(no output)' }] } }] });
    });

    it('refuses tool-call arguments that are not a JSON object', () => {
      const messages: Message[] = [...toolTurn().slice(0, 1), { role: 'assistant', content: [{ type: 'tool_call', id: 't1', name: 'f', arguments: '[1]' }] }];
      const error = (() => {
        try {
          encode({ ...base, tools: [weatherTool], messages });
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(GatewayError);
      expect(error).toMatchObject({ type: 'invalid_request_error', param: 'messages[1].content[0]' });
    });
  });

  describe('thinking (Claude)', () => {
    const thinking = { enabled: true, budgetTokens: 2048 };

    it('asks for it in additionalModelRequestFields, the output cap above the budget, with Claude’s sampling rules', () => {
      const { value, warnings } = encode({ ...base, thinking, maxOutputTokens: 1000, temperature: 0.5, topK: 40, topP: 0.5 });
      expect(value['inferenceConfig']).toEqual({ maxTokens: 3048, topP: 0.95 });
      expect(value['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
      expect(warnings.map((w) => w.feature)).toEqual(['temperature', 'top_k', 'top_p', 'max_tokens']);
    });

    it('raises a budget below 1024 and takes a budget from an effort; the default cap when none is asked for', () => {
      expect(encode({ ...base, thinking: { enabled: true, budgetTokens: 100 } }).value['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
      const { value, warnings } = encode({ ...base, thinking: { enabled: true, effort: 'high' } });
      expect(value['inferenceConfig']).toEqual({ maxTokens: 16384 + 8192 });
      expect(value['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: 16384 } });
      expect(warnings).toEqual([]);
    });

    it.each<[string, Partial<CanonicalRequest>, string]>([
      ['a forced tool call', { tools: [weatherTool], toolChoice: { type: 'required' } }, 'Claude cannot think while a tool call is forced; thinking disabled.'],
      ['a last tool turn without Bedrock-signed reasoning', { tools: [weatherTool], messages: toolTurn([{ type: 'thinking', text: 'x', signature: { protocol: 'anthropic', value: 's' } }]) }, 'The last tool-calling turn has no Bedrock-signed reasoning, which Claude requires; thinking disabled.'],
    ])('is switched off for %s', (_case, extra, message) => {
      const { value, warnings } = encode({ ...base, ...extra, thinking });
      expect(value['additionalModelRequestFields']).toBeUndefined();
      expect(warnings).toEqual([{ feature: 'thinking', message }]);
    });

    it('stays on after a tool turn that opens with Bedrock-signed reasoning', () => {
      const messages = toolTurn([{ type: 'thinking', text: 'x', signature: { protocol: 'bedrock-converse', value: 's' } }]);
      expect(encode({ ...base, tools: [weatherTool], messages, thinking }).value['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    });

    it('is not sent to an endpoint that does not reason, nor to another family', () => {
      expect(encode({ ...base, thinking }, CLAUDE, false)).toEqual({ value: { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] }, warnings: [{ feature: 'thinking', message: 'This model does not reason; thinking dropped.' }] });
      expect(encode({ ...base, thinking }, LLAMA).warnings).toEqual([{ feature: 'thinking', message: 'Bedrock Converse takes thinking settings for Claude only; this model reasons as it is configured to.' }]);
    });
  });

  describe('sampling', () => {
    it('sends top_k to Claude in additionalModelRequestFields and clamps its temperature to 0..1', () => {
      const { value, warnings } = encode({ ...base, topK: 5, temperature: 1.5 });
      expect(value['inferenceConfig']).toEqual({ temperature: 1 });
      expect(value['additionalModelRequestFields']).toEqual({ top_k: 5 });
      expect(warnings).toEqual([{ feature: 'temperature', message: 'Claude takes a temperature from 0 to 1; 1.5 was clamped to 1.' }]);
    });

    it('drops top_k for other families and leaves their temperature alone', () => {
      const { value, warnings } = encode({ ...base, topK: 5, temperature: 1.5 }, LLAMA);
      expect(value['inferenceConfig']).toEqual({ temperature: 1.5 });
      expect(value['additionalModelRequestFields']).toBeUndefined();
      expect(warnings).toEqual([{ feature: 'top_k', message: 'Bedrock Converse takes top_k only for Claude; dropped.' }]);
    });

    it('drops what Converse has no field for, each with a warning', () => {
      const { warnings } = encode({ ...base, seed: 1, frequencyPenalty: 0.1, presencePenalty: 0.2, candidateCount: 2 }, LLAMA);
      expect(warnings.map((w) => w.feature)).toEqual(['seed', 'frequency_penalty', 'presence_penalty', 'candidate_count']);
    });
  });

  it.each([
    [{ type: 'json_object' } as const, 'Respond with a single valid JSON object and nothing else: no prose, no code fences.'],
    [{ type: 'json_schema', schema: { type: 'object' } } as const, 'Respond with a single valid JSON object and nothing else: no prose, no code fences. It must match this JSON Schema: {"type":"object"}'],
  ])('asks for JSON (%j) in the system prompt, with a warning', (responseFormat, text) => {
    const { value, warnings } = encode({ ...base, responseFormat, messages: [{ role: 'system', content: [{ type: 'text', text: 'Be kind.' }] }, ...base.messages] });
    expect(value['system']).toEqual([{ text: 'Be kind.' }, { text }]);
    expect(warnings.map((w) => w.feature)).toEqual(['response_format']);
  });

  it('drops audio and leaves out a turn left empty, so the roles still alternate', () => {
    const { value, warnings } = encode({ ...base, messages: [...base.messages, { role: 'assistant', content: [{ type: 'text', text: '' }] }, { role: 'user', content: [{ type: 'audio', data: 'AAAA', format: 'wav' }, { type: 'text', text: 'again' }] }] });
    expect(value['messages']).toEqual([{ role: 'user', content: [{ text: 'Hi' }, { text: 'again' }] }]);
    expect(warnings.map((w) => w.feature)).toEqual(['audio']);
  });
});
