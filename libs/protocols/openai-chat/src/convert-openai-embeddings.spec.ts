import { GatewayError, type EmbeddingRequest, type EmbeddingResponse } from '@rosetta/canonical';
import { fixtureJson } from './__fixtures__/load-fixture';
import { convertOpenAIEmbeddingsRequest } from './convert-openai-embeddings-request';
import { convertOpenAIEmbeddingsResponse } from './convert-openai-embeddings-response';
import { convertToOpenAIEmbeddingsRequest } from './convert-to-openai-embeddings-request';
import { convertToOpenAIEmbeddingsResponse } from './convert-to-openai-embeddings-response';
import { decodeFloat32Base64, encodeFloat32Base64 } from './float32-base64';

function refusal(run: () => unknown): { status: number; param?: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayError) return { status: error.status, param: error.param, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('convertOpenAIEmbeddingsRequest (dialect A → canonical)', () => {
  it('reads every input form, the size, the user and the routing fields, and keeps the body for the fast path', () => {
    const body = fixtureJson('dialect-a-embeddings-request.json');
    const { request, encodingFormat } = convertOpenAIEmbeddingsRequest({ body });
    const { passthrough, ...rest } = request;
    expect(rest).toEqual(fixtureJson<EmbeddingRequest>('dialect-a-embeddings-request.canonical.json'));
    expect(passthrough).toEqual({ protocol: 'openai', body });
    expect(encodingFormat).toBe('base64');
  });

  it('reads one string and one token array as one input each, and floats as the default', () => {
    expect(convertOpenAIEmbeddingsRequest({ body: { model: 'rosetta/m', input: 'hi' } })).toMatchObject({ request: { inputs: [{ type: 'text', text: 'hi' }] }, encodingFormat: 'float' });
    expect(convertOpenAIEmbeddingsRequest({ body: { model: 'rosetta/m', input: [1, 2, 3], encoding_format: null } })).toMatchObject({ request: { inputs: [{ type: 'tokens', tokens: [1, 2, 3] }] }, encodingFormat: 'float' });
  });

  it.each([
    ['not an object', 'x', undefined, 'The request body must be a JSON object'],
    ['no model', { input: 'x' }, 'model', "Missing required field 'model'"],
    ['no input', { model: 'rosetta/m' }, 'input', "Missing required field 'input'"],
    ['an empty string', { model: 'rosetta/m', input: '' }, 'input', "Invalid 'input': must not be an empty string"],
    ['an empty array', { model: 'rosetta/m', input: [] }, 'input', "Invalid 'input': must not be empty"],
    ['an object', { model: 'rosetta/m', input: { text: 'x' } }, 'input', "Invalid 'input': must be a string, an array of strings, an array of token ids, or an array of arrays of token ids"],
    ['an empty string among others', { model: 'rosetta/m', input: ['a', ''] }, 'input[1]', "Invalid 'input[1]': must not be an empty string"],
    ['a number among strings', { model: 'rosetta/m', input: ['a', 5] }, 'input[1]', "Invalid 'input[1]': must be a string or an array of token ids"],
    ['a bad token id', { model: 'rosetta/m', input: [[1, -2]] }, 'input[0][1]', "Invalid 'input[0][1]': must be a token id (a whole number from 0)"],
    ['a fraction in one token array', { model: 'rosetta/m', input: [1, 2.5] }, 'input[1]', "Invalid 'input[1]': must be a token id (a whole number from 0)"],
    ['too many inputs', { model: 'rosetta/m', input: Array.from({ length: 2049 }, () => 'x') }, 'input', "Invalid 'input': must hold at most 2048 inputs, got 2049"],
    ['a zero size', { model: 'rosetta/m', input: 'x', dimensions: 0 }, 'dimensions', "Invalid 'dimensions': must not be less than 1"],
    ['a fractional size', { model: 'rosetta/m', input: 'x', dimensions: 1.5 }, 'dimensions', "Invalid 'dimensions': must be an integer"],
    ['an unknown encoding', { model: 'rosetta/m', input: 'x', encoding_format: 'hex' }, 'encoding_format', "Invalid 'encoding_format': must be one of float, base64"],
    ['a numeric user', { model: 'rosetta/m', input: 'x', user: 7 }, 'user', "Invalid 'user': must be a string"],
    ['a bad routing field', { model: 'rosetta/m', input: 'x', provider_sort: 'cheapest' }, 'provider_sort', "Invalid 'provider_sort': must be one of price, throughput, latency"],
  ])('refuses %s with a 400 naming the field', (_name, body, param, message) => {
    expect(refusal(() => convertOpenAIEmbeddingsRequest({ body }))).toEqual({ status: 400, param, message });
  });
});

describe('convertToOpenAIEmbeddingsRequest (canonical → OpenAI upstream)', () => {
  it('writes inputs, size and user, always asks for floats, and names the Gemini hints it drops', () => {
    const request: EmbeddingRequest = {
      model: 'rosetta/text-embedding-3-small',
      inputs: [{ type: 'text', text: 'query', taskType: 'RETRIEVAL_QUERY' }, { type: 'text', text: 'doc', title: 'Title' }],
      dimensions: 256,
      routing: { order: ['openai'] },
    };
    expect(convertToOpenAIEmbeddingsRequest({ request, upstreamModel: 'text-embedding-3-small' })).toEqual({
      value: { model: 'text-embedding-3-small', input: ['query', 'doc'], dimensions: 256, encoding_format: 'float' },
      warnings: [
        { feature: 'taskType', message: 'OpenAI embeddings have no task type; dropped.' },
        { feature: 'title', message: 'OpenAI embeddings have no document title; dropped.' },
      ],
    });
  });

  it('sends token ids as arrays of ids', () => {
    const request: EmbeddingRequest = { model: 'rosetta/m', inputs: [{ type: 'tokens', tokens: [1, 2] }, { type: 'text', text: 'x' }], routing: {} };
    expect(convertToOpenAIEmbeddingsRequest({ request, upstreamModel: 'm' }).value).toEqual({ model: 'm', input: [[1, 2], 'x'], encoding_format: 'float' });
  });

  it('forwards a dialect-A body as sent, with the upstream model, floats and no routing fields', () => {
    const body = fixtureJson('dialect-a-embeddings-request.json');
    const { request } = convertOpenAIEmbeddingsRequest({ body });
    expect(convertToOpenAIEmbeddingsRequest({ request, upstreamModel: 'text-embedding-3-small' })).toEqual({
      value: { model: 'text-embedding-3-small', input: ['The food was delicious.', [9906, 1917]], dimensions: 256, encoding_format: 'float', user: 'user-7', truncate_prompt_tokens: 100 },
      warnings: [],
    });
  });
});

describe('convertOpenAIEmbeddingsResponse (OpenAI upstream → canonical)', () => {
  it.each(['openai-embeddings-response.json', 'openai-embeddings-response-base64.json'])('decodes %s in input order', (name) => {
    expect(convertOpenAIEmbeddingsResponse({ body: fixtureJson(name), inputs: 2 })).toEqual(fixtureJson<EmbeddingResponse>('openai-embeddings-response.canonical.json'));
  });

  it.each([
    [{ object: 'list' }, 'it has no data'],
    [{ data: [{ index: 0, embedding: [1] }] }, 'it holds 1 embeddings for 2 inputs'],
    [{ data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] }, 'embedding 1 is not a vector for a distinct input'],
    [{ data: [{ index: 0, embedding: [1] }, { index: 1, embedding: ['x'] }] }, 'embedding 1 is not a vector for a distinct input'],
    [{ data: [{ index: 0, embedding: [1] }, { index: 1, embedding: 'AAA' }] }, 'embedding 1 is not a vector for a distinct input'],
  ])('fails %j as a retryable upstream error', (body, detail) => {
    let caught: unknown;
    try {
      convertOpenAIEmbeddingsResponse({ body, inputs: 2 });
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ type: 'upstream_error', status: 502, retryable: true, message: `Upstream service error: malformed embeddings response (${detail})` });
  });
});

describe('convertToOpenAIEmbeddingsResponse (canonical → dialect A)', () => {
  it.each([['float'], ['base64']] as const)('writes %s vectors with usage and cost', (encodingFormat) => {
    const response = fixtureJson<EmbeddingResponse>('openai-embeddings-response.canonical.json');
    expect(convertToOpenAIEmbeddingsResponse({ response, encodingFormat, costUsd: 1.8e-7 })).toEqual(fixtureJson(`dialect-a-embeddings-response-${encodingFormat}.json`));
  });
});

describe('float32 base64', () => {
  it('round-trips float32 values bit for bit, as the openai SDK reads them', () => {
    const values = [0, -0, 1, -1, 3.4028234663852886e38, 1.401298464324817e-45, Math.fround(Math.PI), Math.fround(-1 / 3), Infinity];
    const text = encodeFloat32Base64(values);
    const bytes = Buffer.from(text, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4))).toEqual(values);
    expect(decodeFloat32Base64(text)).toEqual(values);
  });

  it('rounds doubles to float32 and refuses what is not whole floats in base64', () => {
    expect(decodeFloat32Base64(encodeFloat32Base64([0.1]))).toEqual([Math.fround(0.1)]);
    expect(decodeFloat32Base64('AAA')).toBeUndefined();
    expect(decodeFloat32Base64('not base64!')).toBeUndefined();
  });
});
