import { GatewayError, type EmbeddingRequest, type EmbeddingResponse } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertGeminiEmbedRequest } from './convert-gemini-embed-request';
import { convertGeminiEmbedResponse } from './convert-gemini-embed-response';
import { convertToGeminiEmbedRequest, geminiEmbedPath } from './convert-to-gemini-embed-request';
import { convertToGeminiEmbedResponse } from './convert-to-gemini-embed-response';
import { geminiDialect } from './gemini.dialect';
import { normalizeGeminiRequest } from './normalize-gemini-request';

const MODEL = 'rosetta/gemini-embedding-001';
const decode = (body: Record<string, unknown>, batch: boolean) => convertGeminiEmbedRequest({ body: normalizeGeminiRequest(body), model: MODEL, batch });

function refusal(run: () => unknown): { status: number; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('convertGeminiEmbedRequest (dialect C → canonical)', () => {
  it('reads a batch in either spelling: task types and titles per request, one size, routing fields, the body kept', () => {
    const raw = fixtureJson('dialect-c-batch-embed-request.json');
    const { passthrough, ...request } = decode(raw, true);
    expect(request).toEqual(fixtureJson<EmbeddingRequest>('dialect-c-batch-embed-request.canonical.json'));
    expect(passthrough).toEqual({ protocol: 'gemini', body: normalizeGeminiRequest(raw) });
  });

  it('reads one content for :embedContent; a body model naming the path model is fine', () => {
    expect(decode({ model: `models/${MODEL}`, content: { parts: [{ text: 'hi' }] } }, false)).toMatchObject({ model: MODEL, inputs: [{ type: 'text', text: 'hi' }] });
  });

  it.each([
    ['embedContent without content', { taskType: 'CLUSTERING' }, false, 'content', "Missing required field 'content'"],
    ['empty parts', { content: { parts: [] } }, false, 'content.parts', "Invalid 'content.parts': must be a non-empty array of text parts"],
    ['an image part', { content: { parts: [{ inlineData: { mimeType: 'image/png', data: 'AA==' } }] } }, false, 'content.parts[0]', "Invalid 'content.parts[0]': must be a text part ({text}): only text can be embedded"],
    ['only blank text', { content: { parts: [{ text: ' ' }] } }, false, 'content.parts', "Invalid 'content.parts': must hold some text"],
    ['an unknown task type', { content: { parts: [{ text: 'x' }] }, taskType: 'SEARCH' }, false, 'taskType', "Invalid 'taskType': must be one of TASK_TYPE_UNSPECIFIED, RETRIEVAL_QUERY, RETRIEVAL_DOCUMENT, SEMANTIC_SIMILARITY, CLASSIFICATION, CLUSTERING, QUESTION_ANSWERING, FACT_VERIFICATION, CODE_RETRIEVAL_QUERY"],
    ['a zero size', { content: { parts: [{ text: 'x' }] }, output_dimensionality: 0 }, false, 'outputDimensionality', "Invalid 'outputDimensionality': must not be less than 1"],
    ['a batch without requests', { content: { parts: [{ text: 'x' }] } }, true, 'requests', "Missing required field 'requests'"],
    ['an empty batch', { requests: [] }, true, 'requests', "Invalid 'requests': must contain at least 1 item"],
    ['101 requests', { requests: Array.from({ length: 101 }, () => ({ content: { parts: [{ text: 'x' }] } })) }, true, 'requests', "Invalid 'requests': at most 100 requests can be in one batch, got 101"],
    ['another model in a request', { requests: [{ model: 'models/rosetta/other', content: { parts: [{ text: 'x' }] } }] }, true, 'requests[0].model', `Invalid 'requests[0].model': must name the model in the request path, 'models/${MODEL}'`],
    ['two sizes in one batch', { requests: [{ content: { parts: [{ text: 'x' }] }, outputDimensionality: 8 }, { content: { parts: [{ text: 'y' }] } }] }, true, 'requests[1].outputDimensionality', "Invalid 'requests[1].outputDimensionality': must be the same in every request of a batch"],
    ['a request that is not an object', { requests: ['x'] }, true, 'requests[0]', "Invalid 'requests[0]': must be an object"],
  ])('refuses %s with a 400 naming the field', (_name, body, batch, param, message) => {
    expect(refusal(() => decode(body as Record<string, unknown>, batch))).toEqual({ status: 400, param, message });
  });
});

describe('convertToGeminiEmbedRequest (canonical → Gemini upstream)', () => {
  it('batches several inputs with the model in every request', () => {
    const request = { ...fixtureJson<EmbeddingRequest>('dialect-c-batch-embed-request.canonical.json') };
    expect(convertToGeminiEmbedRequest({ request, upstreamModel: 'gemini-embedding-001' })).toEqual({ value: fixtureJson('gemini-batch-embed-request.json'), warnings: [] });
    expect(geminiEmbedPath('gemini-embedding-001', 2)).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents');
  });

  it('sends one input to :embedContent as one request; an OpenAI user id has no place and goes unsaid', () => {
    const request: EmbeddingRequest = { model: MODEL, inputs: [{ type: 'text', text: 'hello' }], dimensions: 256, user: 'u', routing: {} };
    expect(convertToGeminiEmbedRequest({ request, upstreamModel: 'models/gemini-embedding-001' })).toEqual({
      value: { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'hello' }] }, outputDimensionality: 256 },
      warnings: [],
    });
    expect(geminiEmbedPath('models/gemini-embedding-001', 1)).toBe('/v1beta/models/gemini-embedding-001:embedContent');
  });

  it('forwards a dialect-C body as sent (unknown fields too), with the upstream model and no routing fields', () => {
    const request = decode({ content: { parts: [{ text: 'x' }] }, task_type: 'CLUSTERING', autoTruncate: true, provider_sort: 'price' }, false);
    expect(convertToGeminiEmbedRequest({ request, upstreamModel: 'gemini-embedding-001' }).value).toEqual({ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'x' }] }, taskType: 'CLUSTERING', autoTruncate: true });
    const batch = decode(fixtureJson('dialect-c-batch-embed-request.json'), true);
    expect(convertToGeminiEmbedRequest({ request: batch, upstreamModel: 'gemini-embedding-001' }).value).toEqual({
      requests: [
        { model: 'models/gemini-embedding-001', content: { parts: [{ text: 'What is the meaning of life?' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 768 },
        { model: 'models/gemini-embedding-001', content: { role: 'user', parts: [{ text: 'Life' }, { text: 'is 42.' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 'Answers', outputDimensionality: 768 },
      ],
    });
  });

  it('never sends token ids (a local 400: the router keeps them from Gemini)', () => {
    const request: EmbeddingRequest = { model: MODEL, inputs: [{ type: 'tokens', tokens: [1] }], routing: {} };
    expect(() => convertToGeminiEmbedRequest({ request, upstreamModel: 'g' })).toThrow(expect.objectContaining({ status: 400, local: true, param: 'input[0]' }));
  });
});

describe('convertGeminiEmbedResponse (Gemini upstream → canonical)', () => {
  it('reads a batch answer, and a single one, with no usage (Google reports none)', () => {
    expect(convertGeminiEmbedResponse({ body: fixtureJson('gemini-batch-embed-response.json'), inputs: 2 })).toEqual(fixtureJson<EmbeddingResponse>('gemini-embed-response.canonical.json'));
    expect(convertGeminiEmbedResponse({ body: { embedding: { values: [1, 2] } }, inputs: 1 })).toEqual({ model: '', embeddings: [[1, 2]] });
  });

  it('uses usageMetadata where a server sends it', () => {
    expect(convertGeminiEmbedResponse({ body: { embedding: { values: [1] }, usageMetadata: { promptTokenCount: 4 } }, inputs: 1 }).usage).toEqual({ inputTokens: 4, outputTokens: 0 });
  });

  it.each([
    [{}, 1, 'it has no embedding'],
    [{ embeddings: [{ values: [1] }] }, 2, 'it holds 1 embeddings for 2 inputs'],
    [{ embeddings: [{ values: [1] }, { values: 'x' }] }, 2, 'embedding 1 has no values'],
  ])('fails %j as a retryable upstream error', (body, inputs, detail) => {
    expect(() => convertGeminiEmbedResponse({ body, inputs })).toThrow(
      expect.objectContaining({ type: 'upstream_error', status: 502, retryable: true, message: `Upstream service error: malformed embeddings response (${detail})` }),
    );
  });
});

describe('convertToGeminiEmbedResponse (canonical → dialect C)', () => {
  const response = fixtureJson<EmbeddingResponse>('gemini-embed-response.canonical.json');
  it('writes {embeddings: [{values}]} for a batch and {embedding: {values}} for one', () => {
    expect(convertToGeminiEmbedResponse({ response, batch: true })).toEqual(fixtureJson('gemini-batch-embed-response.json'));
    expect(convertToGeminiEmbedResponse({ response: { ...response, embeddings: [[0.5]] }, batch: false })).toEqual({ embedding: { values: [0.5] } });
  });
});

describe('the Gemini dialect routes the embed methods', () => {
  it.each([
    ['rosetta/gemini-embedding-001:embedContent', 'embed'],
    ['rosetta/gemini-embedding-001:batchEmbedContents', 'batch_embed'],
    ['rosetta%2Fgemini-embedding-001:batchEmbedContents', 'batch_embed'],
  ])('%s is %s', (tail, operation) => {
    expect(geminiDialect.parseModelCall!(tail)).toEqual({ model: MODEL, operation });
  });

  it('lists an embedding model as Google lists its own', () => {
    expect(geminiDialect.encodeModel!({ id: MODEL, displayName: 'G', description: 'd', contextLength: 2048, maxCompletionTokens: 0, kind: 'embedding' })).toEqual({
      name: `models/${MODEL}`, baseModelId: MODEL, version: '001', displayName: 'G', description: 'd', inputTokenLimit: 2048, outputTokenLimit: 1, supportedGenerationMethods: ['embedContent', 'countTokens'],
    });
  });
});
