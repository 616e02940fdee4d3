import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, InvokeModelCommand, InvokeModelWithResponseStreamCommand, type ContentBlock, type Message } from '@aws-sdk/client-bedrock-runtime';
import { fromContainerMetadata, fromInstanceMetadata } from '@aws-sdk/credential-providers';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { mintSimAwsTemporaryCredentials, simAwsDeniedCredentials, simAwsStaticCredentials, type SimAwsCredentials } from './clouds/aws-credentials';
import { startAwsCredentialServer, type RunningAwsCredentialServer } from './clouds/aws-credential-server';
import { useAwsLoopback, watchOutboundHosts } from './clouds/testing/cloud-test-env';
import { startSimulator, type RunningSimulator } from './simulator';

// The official AWS SDK, pointed at the simulator with no gateway in between: it signs with SigV4
// (verified by the simulator's own implementation), frames ConverseStream and
// InvokeModelWithResponseStream as AWS event-stream, and reads errors by x-amzn-errortype. The
// client's default handler speaks HTTP/2 (for the bidirectional operation); HTTP/1.1 serves
// every operation here, as it does the gateway.
describe('@aws-sdk/client-bedrock-runtime against the simulator', () => {
  const MODEL = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
  let sim: RunningSimulator;
  let credentials: RunningAwsCredentialServer;
  let restoreEnv: () => void;
  let outbound: ReturnType<typeof watchOutboundHosts>;
  let client: BedrockRuntimeClient;

  beforeAll(async () => {
    outbound = watchOutboundHosts();
    restoreEnv = useAwsLoopback();
    [sim, credentials] = await Promise.all([startSimulator(), startAwsCredentialServer({ expiresInSeconds: 1 })]);
    client = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials: simAwsStaticCredentials(), maxAttempts: 1, requestHandler: new NodeHttpHandler() });
  });
  afterAll(async () => {
    client.destroy();
    restoreEnv();
    await Promise.all([sim.close(), credentials.close()]);
    outbound.stop();
    expect(outbound.hosts()).toEqual([]);
  });
  beforeEach(() => sim.reset());

  const user = (text: string): Message => ({ role: 'user', content: [{ text }] });
  /** A client like `client`, with other credentials (or a bearer token); destroyed by the caller. */
  const clientWith = (config: { credentials?: SimAwsCredentials; token?: { token: string }; authSchemePreference?: string[] }): BedrockRuntimeClient =>
    new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, maxAttempts: 1, requestHandler: new NodeHttpHandler(), ...config });

  it('Converse: text, usage with the cache counters, and the signed path with the model id escaped', async () => {
    sim.script({ match: 'cached please', reply: { text: 'From cache.', usage: { input: 120, output: 3, cached: 100 } } });
    const answer = await client.send(new ConverseCommand({ modelId: MODEL, system: [{ text: 'Be brief.' }], messages: [user('cached please')], inferenceConfig: { maxTokens: 50 } }));
    expect(answer.output?.message?.content).toEqual([{ text: 'From cache.' }]);
    expect(answer.stopReason).toBe('end_turn');
    expect(answer.usage).toEqual({ inputTokens: 20, outputTokens: 3, totalTokens: 123, cacheReadInputTokens: 100, cacheWriteInputTokens: 0 });
    const [recorded] = sim.requests();
    expect([recorded?.protocol, recorded?.path]).toEqual(['bedrock-converse', '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse']);
    expect(recorded?.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIASIM\w+\/\d{8}\/us-east-1\/bedrock\/aws4_request/);
  });

  it('Converse: a tool call, its result sent back, and reasoning replayed with its signature', async () => {
    const tools = { tools: [{ toolSpec: { name: 'get_weather', description: 'Weather for a city', inputSchema: { json: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } } }] };
    const thinking = { thinking: { type: 'enabled', budget_tokens: 1024 } };
    const first = await client.send(new ConverseCommand({ modelId: MODEL, messages: [user('What is the weather in Oslo?')], toolConfig: tools, additionalModelRequestFields: thinking }));
    expect(first.stopReason).toBe('tool_use');
    const content = first.output?.message?.content ?? [];
    const reasoning = content.find((block) => block.reasoningContent);
    const call = content.find((block) => block.toolUse)?.toolUse;
    expect(reasoning?.reasoningContent?.reasoningText?.signature).toEqual(expect.any(String));
    expect(call).toMatchObject({ name: 'get_weather', input: { city: expect.any(String) } });
    const history: Message[] = [user('What is the weather in Oslo?'), { role: 'assistant', content }, { role: 'user', content: [{ toolResult: { toolUseId: call!.toolUseId!, content: [{ text: '4°C and clear' }] } }] }];
    const second = await client.send(new ConverseCommand({ modelId: MODEL, messages: history, toolConfig: tools, additionalModelRequestFields: thinking }));
    expect(second.output?.message?.content?.find((block) => block.text)?.text).toBe('Tool results received: 4°C and clear');
    // A reasoning block whose signature was tampered with is refused, as Claude on Bedrock refuses it.
    const forged: ContentBlock[] = content.map((block) => (block.reasoningContent ? { reasoningContent: { reasoningText: { text: 'forged', signature: block.reasoningContent.reasoningText!.signature! } } } : block));
    await expect(client.send(new ConverseCommand({ modelId: MODEL, messages: [history[0]!, { role: 'assistant', content: forged }, history[2]!], toolConfig: tools }))).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('Invalid signature') });
  });

  it('ConverseStream: text deltas, a tool call in pieces, the stop reason and the usage, through the SDK\'s event-stream reader', async () => {
    sim.script({ match: 'stream it', reply: { text: 'One two three four.', toolCalls: [{ id: 'tooluse_sim1', name: 'lookup', arguments: { q: 'oslo weather' } }], finish: 'tool_calls', usage: { input: 9, output: 14 } } });
    const answer = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user('stream it')], toolConfig: { tools: [{ toolSpec: { name: 'lookup', inputSchema: { json: { type: 'object' } } } }] } }));
    let text = '';
    let input = '';
    const kinds: string[] = [];
    let stopReason: string | undefined;
    let usage: unknown;
    for await (const event of answer.stream!) {
      kinds.push(Object.entries(event as object).find(([, value]) => value !== undefined)?.[0] ?? "");
      text += event.contentBlockDelta?.delta?.text ?? '';
      input += event.contentBlockDelta?.delta?.toolUse?.input ?? '';
      stopReason = event.messageStop?.stopReason ?? stopReason;
      usage = event.metadata?.usage ?? usage;
    }
    expect(text).toBe('One two three four.');
    expect(JSON.parse(input)).toEqual({ q: 'oslo weather' });
    expect([kinds[0], kinds.includes('contentBlockStart'), kinds.at(-2), kinds.at(-1)]).toEqual(['messageStart', true, 'messageStop', 'metadata']);
    expect([stopReason, usage]).toEqual(['tool_use', { inputTokens: 9, outputTokens: 14, totalTokens: 23, cacheReadInputTokens: 0, cacheWriteInputTokens: 0 }]);
  });

  it('errors by x-amzn-errortype: a scripted 429 is the SDK\'s ThrottlingException, an in-stream exception fails the iteration', async () => {
    sim.script({ match: 'throttle me', reply: { error: { status: 429, message: 'Too many requests, please wait before trying again.' } } });
    await expect(client.send(new ConverseCommand({ modelId: MODEL, messages: [user('throttle me')] }))).rejects.toMatchObject({ name: 'ThrottlingException', $metadata: { httpStatusCode: 429 } });
    sim.script({ match: 'break midway', reply: { text: 'alpha beta gamma delta', streamErrorAfterChunks: 2 } });
    const answer = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user('break midway')] }));
    const seen: string[] = [];
    const read = async (): Promise<void> => {
      for await (const event of answer.stream!) seen.push(event.contentBlockDelta?.delta?.text ?? '');
    };
    await expect(read()).rejects.toMatchObject({ name: 'ModelStreamErrorException' });
    expect(seen.join('')).toBe('alpha beta ');
    sim.script({ match: 'throttle midway', reply: { text: 'alpha beta gamma', streamErrorAfterChunks: 1, error: { status: 429, message: 'Too many tokens, please wait before trying again.' } } });
    const throttled = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user('throttle midway')] }));
    const drain = async (): Promise<void> => {
      for await (const event of throttled.stream!) void event;
    };
    await expect(drain()).rejects.toMatchObject({ name: 'ThrottlingException', message: 'Too many tokens, please wait before trying again.' });
  });

  it.each([
    [400, 'ValidationException'],
    [403, 'AccessDeniedException'],
    [404, 'ResourceNotFoundException'],
    [408, 'ModelTimeoutException'],
    [424, 'ModelErrorException'],
    [500, 'InternalServerException'],
    [503, 'ServiceUnavailableException'],
  ])('a scripted %i reaches the SDK as its %s', async (status, name) => {
    sim.script({ match: `scripted ${status}`, reply: { error: { status, message: `scripted ${status}` } } });
    await expect(client.send(new ConverseCommand({ modelId: MODEL, messages: [user(`scripted ${status}`)] }))).rejects.toMatchObject({ name, message: `scripted ${status}`, $metadata: { httpStatusCode: status } });
  });

  it('ConverseStream with reasoning: its text and then its signature, which verifies when replayed', async () => {
    const thinking = { thinking: { type: 'enabled', budget_tokens: 1024 } };
    const answer = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user('think about Oslo')], additionalModelRequestFields: thinking }));
    let reasoning = '';
    let signature = '';
    let text = '';
    for await (const event of answer.stream!) {
      const delta = event.contentBlockDelta?.delta;
      reasoning += delta?.reasoningContent?.text ?? '';
      signature += delta?.reasoningContent?.signature ?? '';
      text += delta?.text ?? '';
    }
    expect(reasoning).toBe('Considering: think about Oslo');
    const replay: Message[] = [user('think about Oslo'), { role: 'assistant', content: [{ reasoningContent: { reasoningText: { text: reasoning, signature } } }, { text }] }, user('and now?')];
    const next = await client.send(new ConverseCommand({ modelId: MODEL, messages: replay, additionalModelRequestFields: thinking }));
    expect(next.stopReason).toBe('end_turn');
  });

  it('a wrong secret is InvalidSignatureException, an unknown key UnrecognizedClientException', async () => {
    const { accessKeyId } = simAwsStaticCredentials();
    const wrongSecret = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials: { accessKeyId, secretAccessKey: 'not-the-secret' }, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
    const unknownKey = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: 'x' }, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
    try {
      await expect(wrongSecret.send(new ConverseCommand({ modelId: MODEL, messages: [user('hi')] }))).rejects.toMatchObject({ name: 'InvalidSignatureException', $metadata: { httpStatusCode: 403 } });
      await expect(unknownKey.send(new ConverseCommand({ modelId: MODEL, messages: [user('hi')] }))).rejects.toMatchObject({ name: 'UnrecognizedClientException' });
    } finally {
      wrongSecret.destroy();
      unknownKey.destroy();
    }
  });

  it('temporary credentials past their expiry are ExpiredTokenException; a principal without permission AccessDeniedException', async () => {
    const expired = clientWith({ credentials: mintSimAwsTemporaryCredentials(-1) });
    const denied = clientWith({ credentials: simAwsDeniedCredentials() });
    try {
      await expect(expired.send(new ConverseCommand({ modelId: MODEL, messages: [user('hi')] }))).rejects.toMatchObject({ name: 'ExpiredTokenException', $metadata: { httpStatusCode: 403 } });
      await expect(denied.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user('hi')] }))).rejects.toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('bedrock:InvokeModelWithResponseStream') });
    } finally {
      expired.destroy();
      denied.destroy();
    }
  });

  it('rotating temporary credentials from the container endpoint and instance metadata: each one-second credential is fetched anew and accepted', async () => {
    for (const provider of [fromContainerMetadata(), fromInstanceMetadata()]) {
      const restore = useAwsLoopback({ AWS_CONTAINER_CREDENTIALS_FULL_URI: credentials.containerCredentialsUri, AWS_EC2_METADATA_SERVICE_ENDPOINT: credentials.instanceMetadataEndpoint });
      const rotating = new BedrockRuntimeClient({ region: 'us-east-1', endpoint: sim.url, credentials: provider, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
      try {
        const before = credentials.issued().length;
        for (const text of ['first', 'second']) {
          const answer = await rotating.send(new ConverseCommand({ modelId: MODEL, messages: [user(text)] }));
          expect(answer.output?.message?.content?.[0]?.text).toContain(text);
        }
        // A credential within five minutes of expiry is refreshed before use: each call got its own.
        expect(credentials.issued().length - before).toBeGreaterThanOrEqual(2);
      } finally {
        rotating.destroy();
        restore();
      }
    }
    const recorded = sim.requests().filter((r) => r.protocol === 'bedrock-converse');
    expect(recorded.every((r) => r.headers['x-amz-security-token']?.startsWith('IQoJsim'))).toBe(true);
  });

  it('InvokeModel and InvokeModelWithResponseStream with Claude\'s body: Bedrock\'s version, no model, chunks of Anthropic events', async () => {
    const body = (text: string) => JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 50, messages: [{ role: 'user', content: text }] });
    const whole = await client.send(new InvokeModelCommand({ modelId: MODEL, contentType: 'application/json', body: body('Hello invoke') }));
    const message = JSON.parse(Buffer.from(whole.body).toString('utf8')) as { content: { text: string }[]; model: string };
    expect(message.content[0]?.text).toBe(`Simulated reply from ${MODEL}: Hello invoke`);
    const streamed = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: MODEL, contentType: 'application/json', body: body('Hello stream') }));
    const types: string[] = [];
    let text = '';
    for await (const event of streamed.body!) {
      const data = JSON.parse(Buffer.from(event.chunk!.bytes!).toString('utf8')) as { type: string; delta?: { text?: string }; 'amazon-bedrock-invocationMetrics'?: unknown };
      types.push(data.type);
      text += data.delta?.text ?? '';
      if (data.type === 'message_stop') expect(data['amazon-bedrock-invocationMetrics']).toMatchObject({ inputTokenCount: expect.any(Number) });
    }
    expect([types[0], types.at(-1), text]).toEqual(['message_start', 'message_stop', `Simulated reply from ${MODEL}: Hello stream`]);
    const paths = sim.requests().map((r) => [r.protocol, r.path]);
    expect(paths).toEqual([
      ['bedrock-anthropic', `/model/${encodeURIComponent(MODEL)}/invoke`],
      ['bedrock-anthropic', `/model/${encodeURIComponent(MODEL)}/invoke-with-response-stream`],
    ]);
    sim.script({ match: 'Hello timeout', reply: { text: 'a b c', streamErrorAfterChunks: 1, error: { status: 408, message: 'Model has timed out in processing the request.' } } });
    const timedOut = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: MODEL, contentType: 'application/json', body: body('Hello timeout') }));
    const drain = async (): Promise<void> => {
      for await (const event of timedOut.body!) void event;
    };
    await expect(drain()).rejects.toMatchObject({ name: 'ModelTimeoutException', message: 'Model has timed out in processing the request.' });
    const withModel = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    await expect(client.send(new InvokeModelCommand({ modelId: MODEL, body: withModel }))).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('extraneous key [model]') });
    // A beta flag Bedrock does not know fails the whole request, as it does on Bedrock.
    const unknownBeta = JSON.stringify({ anthropic_version: 'bedrock-2023-05-31', anthropic_beta: ['interleaved-thinking-2025-05-14', 'oauth-2025-04-20'], max_tokens: 5, messages: [{ role: 'user', content: 'x' }] });
    await expect(client.send(new InvokeModelCommand({ modelId: MODEL, body: unknownBeta }))).rejects.toMatchObject({ name: 'ValidationException', message: expect.stringContaining('invalid beta flag') });
  });

  it('a Bedrock API key through the SDK’s bearer support: the token config, and AWS_BEARER_TOKEN_BEDROCK', async () => {
    const keyed = clientWith({ token: { token: 'ABSKc2ltLWtleQ==' }, authSchemePreference: ['httpBearerAuth'] });
    const notBedrock = clientWith({ token: { token: 'sk-not-bedrock' }, authSchemePreference: ['httpBearerAuth'] });
    try {
      expect((await keyed.send(new ConverseCommand({ modelId: MODEL, messages: [user('keyed')] }))).stopReason).toBe('end_turn');
      await expect(notBedrock.send(new ConverseCommand({ modelId: MODEL, messages: [user('keyed')] }))).rejects.toMatchObject({ name: 'UnrecognizedClientException', $metadata: { httpStatusCode: 403 } });
    } finally {
      keyed.destroy();
      notBedrock.destroy();
    }
    const restore = useAwsLoopback({ AWS_BEARER_TOKEN_BEDROCK: 'ABSKZnJvbS1lbnY=' });
    const fromEnv = clientWith({});
    try {
      expect((await fromEnv.send(new ConverseCommand({ modelId: MODEL, messages: [user('from env')] }))).stopReason).toBe('end_turn');
    } finally {
      fromEnv.destroy();
      restore();
    }
    expect(sim.requests().map((r) => r.headers['authorization'])).toEqual(['Bearer ABSKc2ltLWtleQ==', 'Bearer sk-not-bedrock', 'Bearer ABSKZnJvbS1lbnY=']);
  });
});
