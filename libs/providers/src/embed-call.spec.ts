import type { EmbeddingRequest } from '@rosetta/canonical';
import { geminiUpstream } from '@rosetta/protocols/gemini';
import { openAIChatUpstream } from '@rosetta/protocols/openai-chat';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { AbortLine } from './abort-line';
import { HttpTransport } from './http-transport';
import { ProtocolAdapter } from './protocol-adapter';
import type { UpstreamTarget } from './provider-adapter';

const TIMEOUTS = { connectMs: 2_000, firstByteMs: 2_000, idleMs: 2_000, totalMs: 5_000 };

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/** A stand-in upstream answering both protocols' embeddings: each vector is [the input's length]. */
function upstream(seen: Seen[], fail?: { status: number; body: unknown }): Server {
  return createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const body = JSON.parse(text);
      seen.push({ path: req.url ?? '', headers: req.headers, body });
      const reply = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (fail) return reply(fail.status, fail.body);
      if (req.url?.endsWith('/embeddings')) {
        const inputs: unknown[] = body.input;
        return reply(200, { data: inputs.map((input, index) => ({ index, embedding: [String(input).length] })), model: body.model, usage: { prompt_tokens: inputs.length } });
      }
      const items: any[] = body.requests ?? [body];
      const values = items.map((item) => ({ values: [item.content.parts[0].text.length] }));
      return reply(200, req.url?.endsWith(':embedContent') ? { embedding: values[0] } : { embeddings: values });
    });
  });
}

describe('ProtocolAdapter.embed', () => {
  const seen: Seen[] = [];
  let server: Server;
  let base: string;
  const transport = new HttpTransport();

  beforeEach(async () => {
    seen.length = 0;
    server = upstream(seen);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterAll(() => transport.close());

  const target = (protocol: 'openai' | 'gemini', extra: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
    provider: 'p', protocol, baseUrl: protocol === 'openai' ? `${base}/v1` : base, apiKey: 'secret-key-000000', upstreamModel: 'emb', timeouts: TIMEOUTS, ...extra,
  });
  const texts = (n: number): EmbeddingRequest['inputs'] => Array.from({ length: n }, (_, i) => ({ type: 'text', text: 'x'.repeat(i + 1) }));
  const call = (t: UpstreamTarget, request: EmbeddingRequest) => ({ target: t, request, signal: new AbortLine(), requestId: 'req_1' });

  it('splits 250 inputs into Gemini batches of 100 and joins the vectors in order', async () => {
    const adapter = new ProtocolAdapter(geminiUpstream, transport);
    const { response } = await adapter.embed(call(target('gemini'), { model: 'rosetta/e', inputs: texts(250), routing: {} }));
    expect(response.embeddings).toEqual(Array.from({ length: 250 }, (_, i) => [i + 1]));
    expect(response.usage).toBeUndefined();
    expect(seen.map((s) => [s.path, s.body.requests.length]).sort()).toEqual([
      ['/v1beta/models/emb:batchEmbedContents', 100],
      ['/v1beta/models/emb:batchEmbedContents', 100],
      ['/v1beta/models/emb:batchEmbedContents', 50],
    ]);
    expect(seen[0]!.headers['x-goog-api-key']).toBe('secret-key-000000');
    expect(seen[0]!.headers['x-request-id']).toBe('req_1');
  });

  it('calls :embedContent for one input, and OpenAI /embeddings with the bearer key and its usage', async () => {
    await new ProtocolAdapter(geminiUpstream, transport).embed(call(target('gemini'), { model: 'rosetta/e', inputs: texts(1), routing: {} }));
    expect(seen[0]).toMatchObject({ path: '/v1beta/models/emb:embedContent', body: { model: 'models/emb', content: { parts: [{ text: 'x' }] } } });
    const { response } = await new ProtocolAdapter(openAIChatUpstream, transport).embed(call(target('openai'), { model: 'rosetta/e', inputs: texts(2), routing: {} }));
    expect(response).toEqual({ model: 'emb', embeddings: [[1], [2]], usage: { inputTokens: 2, outputTokens: 0 } });
    expect(seen[1]).toMatchObject({ path: '/v1/embeddings', headers: { authorization: 'Bearer secret-key-000000' }, body: { model: 'emb', input: ['x', 'xx'], encoding_format: 'float' } });
  });

  it("leaves out a size the upstream cannot take when it is the upstream's own", async () => {
    const adapter = new ProtocolAdapter(openAIChatUpstream, transport);
    await adapter.embed(call(target('openai', { dimensions: 1536, customDimensions: false }), { model: 'rosetta/e', inputs: texts(1), dimensions: 1536, routing: {} }));
    await adapter.embed(call(target('openai', { dimensions: 1536, customDimensions: true }), { model: 'rosetta/e', inputs: texts(1), dimensions: 256, routing: {} }));
    expect(seen.map((s) => s.body.dimensions)).toEqual([undefined, 256]);
  });

  it('refuses, under provider_require_parameters, an upstream that would drop a Gemini task type (retryable elsewhere)', async () => {
    const request: EmbeddingRequest = { model: 'rosetta/e', inputs: [{ type: 'text', text: 'q', taskType: 'RETRIEVAL_QUERY' }], routing: { requireParameters: true } };
    await expect(new ProtocolAdapter(openAIChatUpstream, transport).embed(call(target('openai'), request))).rejects.toMatchObject({ status: 400, retryable: true, param: 'provider_require_parameters' });
    expect(seen).toEqual([]);
  });

  it("turns an upstream error into the gateway's, without the key", async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server = upstream(seen, { status: 429, body: { error: { code: 429, message: 'Quota exceeded for key secret-key-000000', status: 'RESOURCE_EXHAUSTED' } } });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await expect(new ProtocolAdapter(geminiUpstream, transport).embed(call(target('gemini'), { model: 'rosetta/e', inputs: texts(1), routing: {} }))).rejects.toMatchObject({
      type: 'upstream_error',
      status: 429,
      retryable: true,
      message: 'Upstream service error: Quota exceeded for key [redacted]',
    });
  });
});
