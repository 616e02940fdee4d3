/**
 * AWS Bedrock as an upstream (issue 28, ARCHITECTURE §9): a provider with `platform: bedrock`
 * and a region serves any model over Converse (protocol bedrock-converse) and Claude over invoke
 * (protocol anthropic), signed with SigV4 from the AWS default chain — here the container
 * credentials endpoint, as on ECS or EKS, issuing credentials that are refreshed before they
 * expire — or with a Bedrock API key, whatever dialect the client speaks.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { startAwsCredentialServer, startSimulator, type RunningAwsCredentialServer, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase } from './support/services';

describe('Bedrock providers', () => {
  const SONNET = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
  let sim: RunningSimulator;
  let aws: RunningAwsCredentialServer;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;

  const endpoint = (model: string, upstream: string, prices = '{ prompt: 3.3, completion: 16.5 }', reasoning = true) =>
    `      - { model: ${model}, upstream_model: "${upstream}", context_length: 200000, max_completion_tokens: 8192, tools: true, reasoning: ${reasoning}, usd_per_million_tokens: ${prices} }`;

  beforeAll(async () => {
    [sim, aws] = await Promise.all([startSimulator(), startAwsCredentialServer({ expiresInSeconds: 120 })]);
    db = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'rosetta-bedrock-'));
    const file = join(dir, 'providers.yaml');
    writeFileSync(file, [
      'providers:',
      '  - slug: bedrock-east',
      '    platform: bedrock',
      '    protocol: bedrock-converse',
      '    region: us-east-1',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/bedrock-sonnet', SONNET),
      endpoint('rosetta/bedrock-llama', 'us.meta.llama3-3-70b-instruct-v1:0', '{ prompt: 0.72, completion: 0.72 }', false),
      // The catalog's Claude model on Bedrock too, beside the built-in anthropic provider.
      endpoint('rosetta/claude-sonnet-4-5', SONNET),
      '  - slug: bedrock-invoke',
      '    platform: bedrock',
      '    protocol: anthropic',
      '    region: eu-central-1',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/bedrock-invoke-sonnet', 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0'),
      '  - slug: bedrock-keyed',
      '    platform: bedrock',
      '    protocol: bedrock-converse',
      '    region: us-west-2',
      '    api_key_env: TEST_BEDROCK_API_KEY',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/bedrock-keyed', 'openai.gpt-oss-120b-1:0', '{ prompt: 0.15, completion: 0.6 }', false),
      '  - slug: bedrock-denied',
      '    platform: bedrock',
      '    protocol: bedrock-converse',
      '    region: us-west-2',
      '    api_key_env: TEST_BEDROCK_BAD_KEY',
      `    base_url: ${sim.url}`,
      '    endpoints:',
      endpoint('rosetta/claude-haiku-4-5', 'global.anthropic.claude-haiku-4-5-20251001-v1:0', '{ prompt: 1, completion: 5 }'),
    ].join('\n'));
    gateway = await startGateway({
      DATABASE_URL: db.url,
      SIMULATOR_URL: sim.url,
      PROVIDERS_FILE: file,
      // The AWS default chain finds the container endpoint and nothing else: no ~/.aws, no IMDS.
      AWS_CONTAINER_CREDENTIALS_FULL_URI: aws.containerCredentialsUri,
      AWS_CONFIG_FILE: join(dir, 'aws-config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'aws-credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
      TEST_BEDROCK_API_KEY: 'ABSKc2ltdWxhdG9yLWJlZHJvY2sta2V5',
      TEST_BEDROCK_BAD_KEY: 'sk-this-is-no-bedrock-key',
    });
    ({ key } = await createKey(gateway, 'enterprise'));
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([sim?.close(), aws?.close()]);
    await db?.drop();
  });

  const last = (protocol: string) => sim.requests().filter((r) => r.protocol === protocol).at(-1)!;

  it("an OpenAI client's chat, plain and streamed, reaches Converse signed with SigV4 from the container credentials, priced at the provider's own prices", async () => {
    const { data: reply, response } = await openai.chat.completions.create({ model: 'rosetta/bedrock-sonnet', messages: [{ role: 'user', content: 'Hello Bedrock' }] }).withResponse();
    expect(reply.choices[0]!.message.content).toBe(`Simulated reply from ${SONNET}: Hello Bedrock`);
    expect(response.headers.get('x-rosetta-provider')).toBe('bedrock-east');
    const cost = (reply.usage!.prompt_tokens * 3.3 + reply.usage!.completion_tokens * 16.5) / 1e6;
    expect(Number(response.headers.get('x-rosetta-cost-usd'))).toBeCloseTo(cost, 12);
    const sent = last('bedrock-converse');
    expect(sent.path).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse');
    expect(sent.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=ASIASIM\w+\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
    expect(Object.keys(sent.body as object).sort()).toEqual(['messages']);
    const stream = await openai.chat.completions.create({ model: 'rosetta/bedrock-sonnet', messages: [{ role: 'user', content: 'Stream from Bedrock' }], stream: true, stream_options: { include_usage: true } });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe(`Simulated reply from ${SONNET}: Stream from Bedrock`);
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    expect(last('bedrock-converse').path).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream');
  });

  it('an Anthropic client with thinking and a tool: the reasoning signature Bedrock issued goes back to Bedrock on the next turn, and the tool result reaches it', async () => {
    const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
    const ask = { model: 'rosetta/bedrock-sonnet', max_tokens: 4096, thinking: { type: 'enabled' as const, budget_tokens: 1024 }, tools };
    const question: Anthropic.MessageParam = { role: 'user', content: 'What is the weather in Oslo?' };
    const first = await anthropic.messages.stream({ ...ask, messages: [question] }).finalMessage();
    expect(first.stop_reason).toBe('tool_use');
    const thinking = first.content.find((block) => block.type === 'thinking');
    const call = first.content.find((block) => block.type === 'tool_use');
    expect(thinking).toEqual(expect.objectContaining({ thinking: expect.stringContaining('Considering'), signature: expect.any(String) }));
    expect(call).toEqual(expect.objectContaining({ name: 'get_weather', input: { city: expect.any(String) } }));
    expect((last('bedrock-converse').body as any).additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 1024 } });
    const second = await anthropic.messages.create({
      ...ask,
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: (call as Anthropic.ToolUseBlock).id, content: '4°C and clear' }] }],
    });
    expect(second.content.find((block) => block.type === 'text')).toEqual(expect.objectContaining({ text: 'Tool results received: 4°C and clear' }));
    // The simulator checked the replayed signature, as Bedrock does; it saw Bedrock's own.
    const replayed = (last('bedrock-converse').body as any).messages[1].content[0];
    expect(replayed).toEqual({ reasoningContent: { reasoningText: { text: (thinking as Anthropic.ThinkingBlock).thinking, signature: expect.any(String) } } });
  });

  it('Gemini and Responses clients reach Converse too', async () => {
    const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } });
    let text = '';
    for await (const chunk of await ai.models.generateContentStream({ model: 'rosetta/bedrock-llama', contents: 'Gemini to Bedrock' })) text += chunk.text ?? '';
    expect(text).toBe('Simulated reply from us.meta.llama3-3-70b-instruct-v1:0: Gemini to Bedrock');
    const response = await openai.responses.create({ model: 'rosetta/bedrock-llama', input: 'Responses to Bedrock' });
    expect(response.output_text).toBe('Simulated reply from us.meta.llama3-3-70b-instruct-v1:0: Responses to Bedrock');
  });

  it('Claude through invoke: the model in the path, no model or stream in the body, Bedrock\'s anthropic_version, streamed and not', async () => {
    const message = await anthropic.messages.stream({ model: 'rosetta/bedrock-invoke-sonnet', max_tokens: 100, messages: [{ role: 'user', content: 'Claude on Bedrock' }] }).finalMessage();
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Simulated reply from eu.anthropic.claude-sonnet-4-5-20250929-v1:0: Claude on Bedrock' })]);
    const streamed = last('bedrock-anthropic');
    expect(streamed.path).toBe('/model/eu.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream');
    expect(streamed.body).toEqual({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 100, messages: [{ role: 'user', content: 'Claude on Bedrock' }] });
    expect(streamed.headers['authorization']).toContain('/eu-central-1/bedrock/aws4_request');
    const reply = await openai.chat.completions.create({ model: 'rosetta/bedrock-invoke-sonnet', messages: [{ role: 'user', content: 'OpenAI to Claude on Bedrock' }] });
    expect(reply.choices[0]!.message.content).toBe('Simulated reply from eu.anthropic.claude-sonnet-4-5-20250929-v1:0: OpenAI to Claude on Bedrock');
    expect(last('bedrock-anthropic').path).toBe('/model/eu.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
  });

  it("Claude Code's beta flags: those Bedrock knows go as anthropic_beta, the others are left out instead of failing the call", async () => {
    const betas = ['claude-code-20250219', 'oauth-2025-04-20', 'interleaved-thinking-2025-05-14', 'extended-cache-ttl-2025-04-11'];
    const message = await anthropic.messages.create({ model: 'rosetta/bedrock-invoke-sonnet', max_tokens: 50, messages: [{ role: 'user', content: 'with betas' }] }, { headers: { 'anthropic-beta': betas.join(',') } });
    expect(message.content[0]).toEqual(expect.objectContaining({ text: expect.stringContaining('with betas') }));
    expect((last('bedrock-anthropic').body as any).anthropic_beta).toEqual(['claude-code-20250219', 'interleaved-thinking-2025-05-14']);
  });

  it('a Bedrock API key goes as a bearer, never signed', async () => {
    const reply = await openai.chat.completions.create({ model: 'rosetta/bedrock-keyed', messages: [{ role: 'user', content: 'keyed call' }] });
    expect(reply.choices[0]!.message.content).toContain('keyed call');
    const sent = last('bedrock-converse');
    expect([sent.headers['authorization'], sent.headers['x-amz-date'] ?? null]).toEqual(['Bearer ABSKc2ltdWxhdG9yLWJlZHJvY2sta2V5', null]);
  });

  it("one Claude model on anthropic and on Bedrock: provider_order picks Bedrock, and a throttled Bedrock falls back to Anthropic's API", async () => {
    const ask = (content: string) =>
      openai.chat.completions.create({ model: 'rosetta/claude-sonnet-4-5', messages: [{ role: 'user', content }], provider_order: ['bedrock-east', 'anthropic'] } as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();
    expect((await ask('Bedrock first')).response.headers.get('x-rosetta-provider')).toBe('bedrock-east');
    sim.script({ match: 'Bedrock is busy', model: SONNET, reply: { error: { status: 429, message: 'Too many requests, please wait before trying again.' } } });
    const second = await ask('Bedrock is busy');
    expect(second.response.headers.get('x-rosetta-provider')).toBe('anthropic');
    expect(second.data.choices[0]!.message.content).toBe('Simulated reply from claude-sonnet-4-5: Bedrock is busy');
    const tried = sim.requests().filter((r) => JSON.stringify(r.body).includes('Bedrock is busy')).map((r) => r.protocol);
    expect([tried[0], tried.at(-1)]).toEqual(['bedrock-converse', 'anthropic']);
  });

  it('a denied credential is an upstream failure of that provider only: the model falls back, and the error never shows the key', async () => {
    const { data, response } = await openai.chat.completions.create({ model: 'rosetta/claude-haiku-4-5', messages: [{ role: 'user', content: 'denied first' }], provider_order: ['bedrock-denied', 'anthropic'] } as OpenAI.ChatCompletionCreateParamsNonStreaming).withResponse();
    expect(response.headers.get('x-rosetta-provider')).toBe('anthropic');
    expect(data.choices[0]!.message.content).toContain('denied first');
    const only = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/claude-haiku-4-5', messages: [{ role: 'user', content: 'denied only' }], provider_only: ['bedrock-denied'] }),
    });
    const text = await only.text();
    // The provider's credential, not the caller's: a gateway error (502), naming Bedrock's refusal.
    expect(only.status).toBe(502);
    expect(JSON.parse(text).error).toMatchObject({ type: 'upstream_error', message: expect.stringContaining('UnrecognizedClientException') });
    expect(text).not.toContain('sk-this-is-no-bedrock-key');
  });

  it("an exception inside Bedrock's stream ends the client's stream with its dialect's error, never a clean finish", async () => {
    sim.script({ match: 'break the stream', reply: { text: 'one two three four five', streamErrorAfterChunks: 2 } });
    const stream = await openai.chat.completions.create({ model: 'rosetta/bedrock-llama', messages: [{ role: 'user', content: 'break the stream' }], stream: true });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe('one two ');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String((error as Error).message)).toContain('modelStreamErrorException');
    const anthropicStream = anthropic.messages.stream({ model: 'rosetta/bedrock-invoke-sonnet', max_tokens: 50, messages: [{ role: 'user', content: 'break the stream' }] });
    await expect(anthropicStream.finalMessage()).rejects.toThrow(/modelStreamErrorException/);
  });

  it('temporary credentials are refreshed before they expire, and every call is signed with a live one', async () => {
    const before = aws.issued().length;
    for (let i = 0; i < 4; i += 1) {
      const reply = await openai.chat.completions.create({ model: 'rosetta/bedrock-llama', messages: [{ role: 'user', content: `rotation ${i}` }] });
      expect(reply.choices[0]!.message.content).toContain(`rotation ${i}`);
    }
    // Within five minutes of expiry the chain fetches a fresh credential behind the call that noticed.
    expect(aws.issued().length).toBeGreaterThan(before);
    const keys = new Set(sim.requests().filter((r) => r.protocol === 'bedrock-converse' && r.headers['x-amz-security-token']).map((r) => /Credential=(\w+)\//.exec(r.headers['authorization']!)![1]));
    expect(keys.size).toBeGreaterThan(1);
  });

  it('the admin API shows the region, never a credential; Bedrock refuses what it cannot be', async () => {
    const listed = (await adminCall(gateway, 'GET', '/admin/providers')).body;
    expect(listed.find((p: { slug: string }) => p.slug === 'bedrock-east')).toMatchObject({ platform: 'bedrock', region: 'us-east-1', protocol: 'bedrock-converse', configured: true, has_api_key: false });
    expect(listed.find((p: { slug: string }) => p.slug === 'bedrock-keyed')).toMatchObject({ platform: 'bedrock', region: 'us-west-2', configured: true });
    expect(JSON.stringify(listed)).not.toContain('ABSKc2ltdWxhdG9y');
    const wrong = await adminCall(gateway, 'PUT', '/admin/providers/bedrock-bad', { platform: 'bedrock', protocol: 'gemini', region: 'us-east-1' });
    expect(wrong).toMatchObject({ status: 400, body: { error: { param: 'protocol' } } });
    const bare = await adminCall(gateway, 'PUT', '/admin/providers/converse-bad', { protocol: 'bedrock-converse', base_url: 'https://example.com' });
    expect(bare).toMatchObject({ status: 400, body: { error: { param: 'platform' } } });
  });
});
