import { GatewayError, type EmbeddingRequest } from '@rosetta/canonical';
import { requireObjectBody } from '@rosetta/protocols/common';
import { convertGeminiEmbedRequest, convertToGeminiEmbedRequest, normalizeGeminiRequest } from '@rosetta/protocols/gemini';
import { convertOpenAIEmbeddingsRequest, convertToOpenAIEmbeddingsRequest } from '@rosetta/protocols/openai-chat';
import fc from 'fast-check';
import { depthOf } from './__fixtures__/fuzz-bodies';
import { EMBEDDING_SEEDS, hostileEmbeddingBody, type EmbeddingBodies } from './__fixtures__/fuzz-embedding-bodies';
import { MAX_JSON_DEPTH } from './common/json-nesting';

/**
 * The embeddings decoders under fuzzing, as the chat ones are (request-decoding.fuzz.spec.ts):
 * whatever JSON a caller sends, decoding succeeds or throws a 4xx GatewayError, and what decodes
 * encodes for both embeddings protocols (a 4xx there too: token ids toward Gemini are refused).
 */
const RUNS = { seed: 1515, numRuns: 1000 };
const MODEL = 'rosetta/gemini-embedding-001';

const DECODERS: Record<EmbeddingBodies, (raw: unknown) => EmbeddingRequest> = {
  'openai-embeddings': (raw) => convertOpenAIEmbeddingsRequest({ body: raw }).request,
  'gemini-embed': (raw) => convertGeminiEmbedRequest({ body: normalizeGeminiRequest(requireObjectBody(raw)), model: MODEL, batch: false }),
  'gemini-batch-embed': (raw) => convertGeminiEmbedRequest({ body: normalizeGeminiRequest(requireObjectBody(raw)), model: MODEL, batch: true }),
};

function encodeForEveryProtocol(request: EmbeddingRequest): void {
  JSON.stringify(convertToOpenAIEmbeddingsRequest({ request, upstreamModel: 'text-embedding-3-small' }).value);
  JSON.stringify(convertToGeminiEmbedRequest({ request, upstreamModel: 'gemini-embedding-001' }).value);
}

function misbehaviour(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof GatewayError) return error.status >= 400 && error.status < 500 ? undefined : `GatewayError ${error.status} ${error.type}: ${error.message}`;
    return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : `threw ${String(error)}`;
  }
}

const cases = (Object.keys(DECODERS) as EmbeddingBodies[]).map((kind) => ({ kind, decode: DECODERS[kind] }));

describe('embeddings decoders under fuzzing', () => {
  it.each(cases)('$kind: every seed decodes', ({ kind, decode }) => {
    for (const seed of EMBEDDING_SEEDS[kind]) expect(misbehaviour(() => encodeForEveryProtocol(decode(seed)))).toBeUndefined();
    expect(() => decode(EMBEDDING_SEEDS[kind][0])).not.toThrow();
  });

  it.each(cases)('$kind: hostile bodies succeed or get a 4xx GatewayError', ({ kind, decode }) => {
    fc.assert(
      fc.property(hostileEmbeddingBody(kind), (body) => {
        expect(depthOf(body)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
        expect(misbehaviour(() => encodeForEveryProtocol(decode(body)))).toBeUndefined();
      }),
      RUNS,
    );
  });
});
