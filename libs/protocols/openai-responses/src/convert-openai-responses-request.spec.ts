import { GatewayError } from '@rosetta/canonical';
import { convertOpenAIResponsesRequest } from './convert-openai-responses-request';
import { redactedSignature } from './reasoning-signature';

const decode = (body: Record<string, unknown>) => convertOpenAIResponsesRequest({ body: { model: 'rosetta/auto', ...body } });

function refusal(body: Record<string, unknown>): { message: string; param?: string } {
  try {
    decode(body);
  } catch (error) {
    if (error instanceof GatewayError) return { message: error.message, param: error.param };
    throw error;
  }
  throw new Error('decoded');
}

describe('convertOpenAIResponsesRequest', () => {
  it('reads what Codex sends: developer messages, reasoning to replay, calls and outputs, namespaced and hosted tools', () => {
    const { value, warnings } = decode({
      stream: true,
      store: false,
      include: ['reasoning.encrypted_content'],
      reasoning: { effort: 'medium', summary: 'auto' },
      prompt_cache_key: 'sess-1',
      client_metadata: { session_id: 'sess-1' },
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [
        { type: 'function', name: 'exec_command', description: 'Run', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
        { type: 'namespace', name: 'agents', description: 'Sub-agents', tools: [{ type: 'function', name: 'spawn', parameters: { type: 'object' } }] },
        { type: 'custom', name: 'apply_patch', description: 'Patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
        { type: 'web_search', external_web_access: false },
      ],
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] },
        { role: 'user', content: 'List files' },
        { type: 'reasoning', id: 'rs_1', summary: [], content: null, encrypted_content: 'gAAAAB' },
        { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
        { type: 'function_call', call_id: 'call_2', name: 'spawn', namespace: 'agents', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'a.txt' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'spawned' }] },
        { type: 'web_search_call', id: 'ws_1', status: 'completed' },
      ],
    });
    expect(value).toEqual({
      model: 'rosetta/auto',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'You are Codex.' }], developer: true },
        { role: 'user', content: [{ type: 'text', text: 'List files' }] },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', text: '', signature: { protocol: 'openai-responses', value: '{"id":"rs_1","encrypted_content":"gAAAAB"}' } },
            { type: 'tool_call', id: 'call_1', name: 'exec_command', arguments: '{"cmd":"ls"}' },
            { type: 'tool_call', id: 'call_2', name: 'agents__spawn', arguments: '{}' },
          ],
        },
        {
          role: 'tool',
          content: [
            { type: 'tool_result', toolCallId: 'call_1', content: [{ type: 'text', text: 'a.txt' }] },
            { type: 'tool_result', toolCallId: 'call_2', content: [{ type: 'text', text: 'spawned' }] },
          ],
        },
      ],
      tools: [
        { name: 'exec_command', description: 'Run', strict: false, parameters: { type: 'object', properties: { cmd: { type: 'string' } } } },
        { name: 'agents__spawn', parameters: { type: 'object' }, namespace: { name: 'agents', description: 'Sub-agents' } },
        {
          name: 'apply_patch',
          description: 'Patch\n\nThe input must follow this lark grammar:\nstart: "x"',
          parameters: { type: 'object', properties: { input: { type: 'string', description: 'The raw input for the tool.' } }, required: ['input'], additionalProperties: false },
          custom: { format: { type: 'grammar', syntax: 'lark', definition: 'start: "x"' } },
        },
      ],
      toolChoice: { type: 'auto' },
      parallelToolCalls: true,
      thinking: { enabled: true, effort: 'medium', includeThoughts: true },
      stream: true,
      routing: {},
      promptCacheKey: 'sess-1',
      passthrough: { protocol: 'openai-responses', body: expect.objectContaining({ prompt_cache_key: 'sess-1' }) },
    });
    expect(warnings).toEqual([
      { feature: 'input', message: "Input item 'input[7]' of type 'web_search_call' has no equivalent upstream and was dropped." },
      { feature: 'tools', message: "Tool 'tools[3]' of type 'web_search' is served only by a Responses upstream; dropped." },
    ]);
  });

  it('reads a string input with instructions, images, files, a JSON schema and custom-tool history', () => {
    const { value } = decode({
      instructions: 'Be brief.',
      max_output_tokens: 300,
      text: { format: { type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true } },
      input: [
        { role: 'user', content: [{ type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'high' }, { type: 'input_file', filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBER' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Seen.' }] },
        { type: 'custom_tool_call', call_id: 'c1', name: 'apply_patch', input: '*** Begin Patch' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: 'Done' },
      ],
    });
    expect(value.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        content: [
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' }, detail: 'high' },
          { type: 'document', source: { kind: 'base64', mediaType: 'application/pdf', data: 'JVBER' }, filename: 'a.pdf' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Seen.' }, { type: 'tool_call', id: 'c1', name: 'apply_patch', arguments: '{"input":"*** Begin Patch"}' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: [{ type: 'text', text: 'Done' }] }] },
    ]);
    expect(value.maxOutputTokens).toBe(300);
    expect(value.responseFormat).toEqual({ type: 'json_schema', name: 'answer', schema: { type: 'object' }, strict: true });
  });

  it("takes back another provider's signature and redacted thinking that travelled in encrypted_content", () => {
    const anthropic = { protocol: 'anthropic' as const, value: 'sig-abc' };
    const { value } = decode({
      input: [
        { role: 'user', content: 'hi' },
        { type: 'reasoning', id: 'rs_a', summary: [{ type: 'summary_text', text: 'thought' }], encrypted_content: `rosetta-sig.anthropic.${Buffer.from(anthropic.value).toString('base64url')}` },
        { type: 'reasoning', id: 'rs_b', summary: [], encrypted_content: redactedSignature({ protocol: 'anthropic', data: 'opaque' }) },
      ],
    });
    expect(value.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'thought', signature: anthropic },
        { type: 'redacted_thinking', protocol: 'anthropic', data: 'opaque' },
      ],
    });
  });

  it('refuses what it cannot honour, naming the field', () => {
    expect(refusal({ input: 'x', background: true })).toEqual({ message: "Invalid 'background': unsupported background responses ('background': true)", param: 'background' });
    expect(refusal({ input: 'x', conversation: 'conv_1' })).toEqual(expect.objectContaining({ param: 'conversation' }));
    expect(refusal({ input: [{ type: 'message', content: 'no role' }] })).toEqual({ message: "Missing required field 'input[0].role'", param: 'input[0].role' });
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_audio' }] }] })).toEqual(expect.objectContaining({ param: 'input[0].content[0].type' }));
    expect(refusal({ input: [{ role: 'user', content: [{ type: 'input_image' }] }] })).toEqual({ message: "Invalid 'input[0].content[0]': needs either 'image_url' or 'file_id'", param: 'input[0].content[0]' });
    expect(refusal({ input: 'x', metadata: { a: 1 } })).toEqual(expect.objectContaining({ param: 'metadata.a' }));
    expect(refusal({ input: 'x', truncation: 'sometimes' })).toEqual(expect.objectContaining({ param: 'truncation' }));
    expect(refusal({ input: 'x', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'namespace', name: 'm', tools: [] }] }] })).toEqual(expect.objectContaining({ param: 'tools[0].tools[0].type' }));
  });

  it('leaves reasoning alone when only a summary is asked for (Codex asks on every turn)', () => {
    expect(decode({ input: 'x', reasoning: { summary: 'auto' } }).value.thinking).toBeUndefined();
    expect(decode({ input: 'x', reasoning: { effort: 'none' } }).value.thinking).toEqual({ enabled: false, effort: 'none' });
  });
});
