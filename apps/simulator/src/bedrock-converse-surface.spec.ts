import { simAwsDeniedCredentials, simAwsStaticCredentials } from './clouds/aws-credentials';
import { signBedrockCall } from './clouds/testing/bedrock-wire';
import { thinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

// Bedrock's Converse checks, seen on the wire: each body is signed by the AWS SDK's signer and
// sent as the SDK would send it, and must be refused with Bedrock's 400 ValidationException (type
// in x-amzn-errortype, text in {"message"}), or accepted.
describe('the Bedrock Converse surface', () => {
  const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
  const PATH = `/model/${encodeURIComponent(MODEL)}/converse`;
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => sim.close());
  beforeEach(() => sim.reset());

  async function converse(body: unknown, path = PATH, credentials = simAwsStaticCredentials('SURFACE')) {
    const text = JSON.stringify(body);
    const url = `${sim.url}${path}`;
    const response = await fetch(url, { method: 'POST', headers: await signBedrockCall({ url, body: text, credentials }), body: text });
    return { status: response.status, type: response.headers.get('x-amzn-errortype')?.split(':')[0], body: (await response.json()) as Record<string, unknown> };
  }

  const user = (text: string) => ({ role: 'user', content: [{ text }] });
  const weather = { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object' } } } }] };
  const thinking = { thinking: { type: 'enabled', budget_tokens: 1024 } };
  const call = { toolUse: { toolUseId: 'tooluse_1', name: 'get_weather', input: { city: 'Oslo' } } };
  const result = { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ text: '4°C' }] } }] };
  const reasoning = { reasoningContent: { reasoningText: { text: 'Weather needs a tool.', signature: thinkingSignature('bedrock-converse', 'Weather needs a tool.') } } };
  const png = { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } };

  it('answers a plain conversation with the model from the path, and records it as sent', async () => {
    const reply = await converse({ messages: [user('Hello Converse')] });
    expect(reply).toEqual({
      status: 200,
      type: undefined,
      body: {
        output: { message: { role: 'assistant', content: [{ text: `Simulated reply from ${MODEL}: Hello Converse` }] } },
        stopReason: 'end_turn',
        usage: { inputTokens: 4, outputTokens: 6, totalTokens: 10, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 },
        metrics: { latencyMs: 42 },
      },
    });
    expect(sim.requests().map((r) => [r.protocol, r.path])).toEqual([['bedrock-converse', PATH]]);
  });

  it('accepts what Bedrock accepts: images, documents, cache points, tool results as JSON, reasoning replayed with its signature', async () => {
    const body = {
      system: [{ text: 'Be brief.' }, { cachePoint: { type: 'default' } }],
      messages: [
        { role: 'user', content: [{ text: 'Look' }, png, { document: { format: 'md', name: 'Notes (v2) [draft]', source: { bytes: 'IyBub3Rlcw==' } } }, { cachePoint: { type: 'default' } }] },
        { role: 'assistant', content: [reasoning, call] },
        { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_1', content: [{ json: { celsius: 4 } }], status: 'success' } }] },
      ],
      toolConfig: { ...weather, toolChoice: { auto: {} } },
      inferenceConfig: { maxTokens: 2048, topP: 0.95, stopSequences: ['END'] },
      additionalModelRequestFields: thinking,
      additionalModelResponseFieldPaths: ['/stop_sequence'],
      requestMetadata: { team: 'sim' },
    };
    const reply = await converse(body);
    expect([reply.status, reply.body['stopReason']]).toEqual([200, 'end_turn']);
  });

  const refusals: [string, unknown, string][] = [
    ['an unknown top-level key', { messages: [user('x')], temperature: 1 }, 'Malformed input request: extraneous key [temperature] is not permitted, please reformat your input and try again.'],
    ['a conversation opened by the assistant', { messages: [{ role: 'assistant', content: [{ text: 'x' }] }] }, 'A conversation must start with a user message. Try again with a conversation that starts with a user message.'],
    ['two user turns in a row', { messages: [user('a'), user('b')] }, 'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.'],
    ['a tool result answering no call of the turn before', { messages: [user('a'), { role: 'assistant', content: [call] }, { role: 'user', content: [{ toolResult: { toolUseId: 'tooluse_other', content: [{ text: 'x' }] } }] }], toolConfig: weather }, 'The toolResult block at messages.2 answers toolUseId tooluse_other, which the previous assistant turn did not call.'],
    ['tool blocks without a toolConfig', { messages: [user('a'), { role: 'assistant', content: [call] }, result] }, 'The toolConfig field must be defined when using toolUse and toolResult content blocks.'],
    ['reasoning replayed without its signature', { messages: [user('a'), { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: 'hmm' } } }, { text: 'b' }] }, user('c')] }, 'The model returned the following errors: messages.1.content.0.reasoningContent.reasoningText.signature: Invalid signature in thinking block'],
    ['an image format Bedrock does not take', { messages: [{ role: 'user', content: [{ image: { format: 'bmp', source: { bytes: 'Qk0=' } } }] }] }, "1 validation error detected: Value 'bmp' at 'messages.0.content.0.image.format' failed to satisfy constraint: Member must satisfy enum value set: [gif, jpeg, png, webp]"],
    ['image bytes that are not base64', { messages: [{ role: 'user', content: [{ image: { format: 'png', source: { bytes: 'not base64!' } } }] }] }, 'messages.0.content.0.image.source must hold base64 bytes or an s3Location.'],
    ['a document name with a dot', { messages: [{ role: 'user', content: [{ document: { format: 'pdf', name: 'report.pdf', source: { bytes: 'JVBERi0=' } } }] }] }, 'The document file name can only contain alphanumeric characters, whitespace characters, hyphens, parentheses, and square brackets. The name can’t contain more than one consecutive whitespace character.'],
    ['maxTokens of 0', { messages: [user('a')], inferenceConfig: { maxTokens: 0 } }, "1 validation error detected: Value '0' at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1"],
    ['a temperature above 1', { messages: [user('a')], inferenceConfig: { temperature: 1.5 } }, "1 validation error detected: Value '1.5' at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value less than or equal to 1"],
    ['a system block that is not text or a cache point', { system: [{ image: png.image }], messages: [user('a')] }, 'system.0 must set exactly one of text, guardContent or cachePoint.'],
    ['a tool choice naming an undeclared tool', { messages: [user('a')], toolConfig: { ...weather, toolChoice: { tool: { name: 'lookup' } } } }, "The model returned the following errors: tool_choice names tool 'lookup', which is not among the tools provided."],
    ['a thinking budget below 1024', { messages: [user('a')], additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 500 } } }, 'The model returned the following errors: thinking.enabled.budget_tokens: Input should be greater than or equal to 1024'],
    ['a thinking budget not below maxTokens', { messages: [user('a')], inferenceConfig: { maxTokens: 1024 }, additionalModelRequestFields: thinking }, 'The model returned the following errors: `max_tokens` must be greater than `thinking.budget_tokens`.'],
    ['a temperature while thinking', { messages: [user('a')], inferenceConfig: { temperature: 0.2 }, additionalModelRequestFields: thinking }, 'The model returned the following errors: `temperature` may only be set to 1 when thinking is enabled.'],
    ['a forced tool while thinking', { messages: [user('a')], toolConfig: { ...weather, toolChoice: { any: {} } }, additionalModelRequestFields: thinking }, 'The model returned the following errors: Thinking may not be enabled when tool_choice forces tool use.'],
    [
      'thinking on with a last tool-calling turn that does not open with its reasoning',
      { messages: [user('a'), { role: 'assistant', content: [call] }, result], toolConfig: weather, additionalModelRequestFields: thinking },
      'The model returned the following errors: messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceding the lastmost set of `tool_use` and `tool_result` blocks). To avoid this requirement, disable `thinking`.',
    ],
  ];

  it.each(refusals)('refuses %s with a ValidationException, and still records the request', async (_case, body, message) => {
    expect(await converse(body)).toEqual({ status: 400, type: 'ValidationException', body: { message } });
    expect(sim.requests()).toHaveLength(1);
  });

  it('applies Claude’s thinking rules to Claude only', async () => {
    const path = `/model/${encodeURIComponent('openai.gpt-oss-120b-1:0')}/converse`;
    const reply = await converse({ messages: [user('a')], inferenceConfig: { temperature: 0.2 }, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1 } } }, path);
    expect(reply.status).toBe(200);
  });

  it('refuses a principal IAM gives no Bedrock permission with AccessDeniedException, naming the action and the inference profile', async () => {
    const denied = simAwsDeniedCredentials();
    expect(await converse({ messages: [user('a')] }, PATH, denied)).toEqual({
      status: 403,
      type: 'AccessDeniedException',
      body: { message: `User: arn:aws:iam::000000000000:user/${denied.accessKeyId} is not authorized to perform: bedrock:InvokeModel on resource: arn:aws:bedrock:us-east-1:000000000000:inference-profile/${MODEL} because no identity-based policy allows the bedrock:InvokeModel action` },
    });
  });

  it('answers an unsigned request as Bedrock does, before reading the body', async () => {
    const response = await fetch(`${sim.url}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([response.status, response.headers.get('x-amzn-errortype')?.split(':')[0], await response.json()]).toEqual([403, 'MissingAuthenticationTokenException', { message: 'Missing Authentication Token' }]);
  });
});
