import type { CanonicalRequest } from '@rosetta/canonical';
import { convertToBedrockConverseRequest } from './convert-to-bedrock-converse-request';

const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const base: CanonicalRequest = { model: 'rosetta/x', messages: [], stream: false, routing: {} } as CanonicalRequest;
const encode = (request: Partial<CanonicalRequest>, upstreamModel = SONNET, reasoning = true) =>
  convertToBedrockConverseRequest({ request: { ...base, ...request }, upstreamModel, reasoning, defaultMaxTokens: 8192 });

describe('convertToBedrockConverseRequest', () => {
  it('hoists system text, keeps turns alternating with tool results first, and puts a cachePoint after each cache hint', () => {
    const { value, warnings } = encode({
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

  it('thinking for Claude: the budget in additionalModelRequestFields, the cap above it, temperature dropped; reasoning goes back only when Bedrock signed it', () => {
    const { value, warnings } = encode({
      thinking: { enabled: true, budgetTokens: 2048 },
      maxOutputTokens: 1000,
      temperature: 0.5,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        { role: 'assistant', content: [{ type: 'thinking', text: 'mine', signature: { protocol: 'bedrock-converse', value: 'sig-b' } }, { type: 'thinking', text: 'theirs', signature: { protocol: 'anthropic', value: 'sig-a' } }, { type: 'text', text: 'A' }] },
        { role: 'user', content: [{ type: 'text', text: 'Q2' }] },
      ],
    });
    expect(value['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(value['inferenceConfig']).toEqual({ maxTokens: 3048 });
    expect((value['messages'] as { content: unknown[] }[])[1]!.content).toEqual([{ reasoningContent: { reasoningText: { text: 'mine', signature: 'sig-b' } } }, { text: 'A' }]);
    expect(warnings.map((w) => w.feature).sort()).toEqual(['max_tokens', 'temperature']);
  });

  it('thinking is off for a model that is not Claude, for a forced tool, and for a tool turn without Bedrock reasoning — with a warning each', () => {
    expect(encode({ thinking: { enabled: true } }, 'openai.gpt-oss-120b-1:0').warnings.map((w) => w.feature)).toEqual(['thinking']);
    const forced = encode({ thinking: { enabled: true }, tools: [{ name: 't' }], toolChoice: { type: 'tool', name: 't' } });
    expect([forced.value['additionalModelRequestFields'], forced.warnings.map((w) => w.feature)]).toEqual([undefined, ['thinking']]);
    const unsigned = encode({
      thinking: { enabled: true },
      tools: [{ name: 't' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 't', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }] },
      ],
    });
    expect([unsigned.value['additionalModelRequestFields'], unsigned.warnings[0]?.message]).toEqual([undefined, expect.stringContaining('no Bedrock-signed reasoning')]);
  });

  it('images go as bytes; a URL image, audio and a JSON mode are said, not silently lost', () => {
    const { value, warnings } = encode({
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

  it('refuses tool-call arguments that are not a JSON object, naming where they are', () => {
    expect(() => encode({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Q' }] }, { role: 'assistant', content: [{ type: 'tool_call', id: 'c9', name: 't', arguments: '[1,2]' }] }] })).toThrow(
      "The arguments of tool call 'c9' at 'messages[1].content[0]' are not a JSON object; Bedrock needs one.",
    );
  });
});
