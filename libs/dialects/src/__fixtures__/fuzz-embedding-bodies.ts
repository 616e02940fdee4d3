/**
 * Embeddings bodies for the fuzz suites (the decoders here, the HTTP entry in
 * test/fuzz.e2e-spec.ts): valid seeds of `POST /v1/embeddings`, `:embedContent` and
 * `:batchEmbedContents`, mutated by the recipes of fuzz-bodies.ts.
 */
import type fc from 'fast-check';
import { hostileBodyFrom, type Json } from './fuzz-bodies';

export type EmbeddingBodies = 'openai-embeddings' | 'gemini-embed' | 'gemini-batch-embed';

const GEMINI_MODEL = 'models/rosetta/gemini-embedding-001';

export const EMBEDDING_SEEDS: Record<EmbeddingBodies, readonly Json[]> = {
  'openai-embeddings': [
    { model: 'rosetta/text-embedding-3-small', input: 'The food was delicious.' },
    {
      model: 'rosetta/text-embedding-3-small',
      input: ['one', 'two', [1, 2, 3]],
      dimensions: 256,
      encoding_format: 'base64',
      user: 'u-1',
      models: ['rosetta/gemini-embedding-001'],
      provider_order: ['openai'],
    },
    { model: 'rosetta/gemini-embedding-001', input: [[9906, 1917], [1, 2]], encoding_format: 'float' },
  ],
  'gemini-embed': [
    { content: { parts: [{ text: 'Hello' }] } },
    { model: GEMINI_MODEL, content: { role: 'user', parts: [{ text: 'Title' }, { text: 'Body' }] }, task_type: 'RETRIEVAL_DOCUMENT', title: 'Doc', output_dimensionality: 768, provider_sort: 'price' },
  ],
  'gemini-batch-embed': [
    { requests: [{ model: GEMINI_MODEL, content: { parts: [{ text: 'a' }] } }] },
    {
      requests: [
        { model: GEMINI_MODEL, content: { parts: [{ text: 'query' }] }, taskType: 'RETRIEVAL_QUERY', outputDimensionality: 64 },
        { model: GEMINI_MODEL, content: { parts: [{ text: 'doc' }] }, taskType: 'RETRIEVAL_DOCUMENT', title: 't', outputDimensionality: 64 },
      ],
      models: ['rosetta/text-embedding-3-small'],
    },
  ],
};

const VOCABULARY = ['input', 'dimensions', 'encoding_format', 'user', 'content', 'parts', 'text', 'requests', 'taskType', 'task_type', 'title', 'outputDimensionality', 'output_dimensionality'];

export function hostileEmbeddingBody(kind: EmbeddingBodies): fc.Arbitrary<Json> {
  return hostileBodyFrom(EMBEDDING_SEEDS[kind], VOCABULARY);
}
