import type { CanonicalRequest } from '@rosetta/canonical';
import { convertToOpenAIResponsesRequest } from './convert-to-openai-responses-request';

const base: CanonicalRequest = { model: 'rosetta/gpt-5-codex', messages: [], stream: false, routing: {} };
const encode = (request: Partial<CanonicalRequest>, reasoning = true) => convertToOpenAIResponsesRequest({ request: { ...base, ...request }, upstreamModel: 'gpt-5-codex', reasoning });

describe('convertToOpenAIResponsesRequest', () => {
  it('writes a conversation of another dialect as stateless Responses input', () => {
    const { value, warnings } = encode({
      stream: true,
      maxOutputTokens: 500,
      temperature: 0.3,
      topK: 40,
      stopSequences: ['END'],
      thinking: { enabled: true, budgetTokens: 4096 },
      user: 'u-1',
      tools: [
        { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        { name: 'crm__lookup', parameters: { type: 'object' }, namespace: { name: 'crm', description: 'CRM' } },
        { name: 'apply_patch', description: 'Patch', parameters: { type: 'object' }, custom: { format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } } },
      ],
      toolChoice: { type: 'tool', name: 'crm__lookup' },
      responseFormat: { type: 'json_schema', schema: { type: 'object' } },
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }, { type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }, { type: 'audio', data: 'AAA', format: 'wav' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: 'Think.', signature: { protocol: 'openai-responses', value: '{"id":"rs_1","encrypted_content":"gAAAAB"}' } },
            { type: 'thinking', text: 'Claude thought.', signature: { protocol: 'anthropic', value: 'sig' } },
            { type: 'text', text: 'Looking.' },
            { type: 'tool_call', id: 'call_1', name: 'crm__lookup', arguments: '{"id":7}' },
            { type: 'tool_call', id: 'call_2', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: '{"name":"Ada"}' }] },
            { type: 'tool_result', toolCallId: 'call_2', content: [{ type: 'text', text: 'Done' }] },
          ],
        },
      ],
    });
    expect(value).toEqual({
      model: 'gpt-5-codex',
      input: [
        { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'Be brief.' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }, { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'auto' }] },
        { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Think.' }], encrypted_content: 'gAAAAB' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.', annotations: [] }] },
        { type: 'function_call', call_id: 'call_1', name: 'lookup', namespace: 'crm', arguments: '{"id":7}' },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"name":"Ada"}' },
        { type: 'custom_tool_call_output', call_id: 'call_2', output: 'Done' },
      ],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false },
        { type: 'namespace', name: 'crm', description: 'CRM', tools: [{ type: 'function', name: 'lookup', parameters: { type: 'object' }, strict: false }] },
        { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
      ],
      tool_choice: { type: 'function', name: 'lookup', namespace: 'crm' },
      max_output_tokens: 500,
      temperature: 0.3,
      text: { format: { type: 'json_schema', name: 'response', schema: { type: 'object' } } },
      reasoning: { effort: 'medium', summary: 'auto' },
      safety_identifier: 'u-1',
      store: false,
      include: ['reasoning.encrypted_content'],
      stream: true,
    });
    expect(warnings.map((w) => w.feature)).toEqual(['audio', 'topK', 'stopSequences', 'thinking']);
  });

  it('sends no reasoning, nor asks for encrypted reasoning, to a model that does not reason, and says so', () => {
    const { value, warnings } = encode({ thinking: { enabled: true, effort: 'high' }, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] }, false);
    expect(value).toEqual({ model: 'gpt-5-codex', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }], store: false });
    expect(warnings).toEqual([{ feature: 'thinking', message: 'This model does not reason; reasoning_effort dropped.' }]);
  });

  it("forwards a Responses client's body as sent, stateless, without the gateway's ids or other providers' reasoning", () => {
    const body = {
      model: 'rosetta/gpt-5-codex',
      previous_response_id: 'resp_0123',
      provider_order: ['oai'],
      store: true,
      stream_options: { include_obfuscation: false },
      include: ['message.output_text.logprobs'],
      prompt_cache_key: 'k',
      input: [
        { id: 'msg_0123456789abcdef0123456789abcdef_i0', type: 'message', role: 'user', content: 'hi' },
        { id: 'rs_up', type: 'reasoning', summary: [], encrypted_content: 'gAAAAB' },
        { id: 'rs_0123456789abcdef0123456789abcdef_1', type: 'reasoning', summary: [], encrypted_content: 'rosetta-sig.anthropic.c2ln' },
        { id: 'msg_from_codex', type: 'message', role: 'user', content: 'again' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
    };
    const { value } = convertToOpenAIResponsesRequest({ request: { ...base, stream: true, passthrough: { protocol: 'openai-responses', body } }, upstreamModel: 'gpt-5-codex', reasoning: true });
    expect(value).toEqual({
      model: 'gpt-5-codex',
      store: false,
      stream: true,
      include: ['message.output_text.logprobs', 'reasoning.encrypted_content'],
      prompt_cache_key: 'k',
      input: [
        { type: 'message', role: 'user', content: 'hi' },
        { id: 'rs_up', type: 'reasoning', summary: [], encrypted_content: 'gAAAAB' },
        { id: 'msg_from_codex', type: 'message', role: 'user', content: 'again' },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
    });
    expect(body.input).toHaveLength(5); // the client's body itself is untouched
  });

  it("forwards a Responses client's body to a model that does not reason without its reasoning parameters, and says so", () => {
    const body = { model: 'rosetta/gpt-4.1', input: 'hi', reasoning: { effort: 'low', summary: 'auto' }, include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] };
    const { value, warnings } = convertToOpenAIResponsesRequest({ request: { ...base, passthrough: { protocol: 'openai-responses', body } }, upstreamModel: 'gpt-4.1', reasoning: false });
    expect({ value, warnings }).toEqual({
      value: { model: 'gpt-4.1', input: 'hi', store: false, include: ['message.output_text.logprobs'] },
      warnings: [{ feature: 'thinking', message: 'This model does not reason; reasoning dropped.' }],
    });
  });
});
