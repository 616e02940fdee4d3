/** The canonical embeddings response → dialect C: `{embedding: {values}}` for `:embedContent`, `{embeddings: [{values}]}` for a batch. */
import type { EmbeddingResponse } from '@rosetta/canonical';

export function convertToGeminiEmbedResponse({ response, batch }: { response: EmbeddingResponse; batch: boolean }): Record<string, unknown> {
  if (batch) return { embeddings: response.embeddings.map((values) => ({ values })) };
  return { embedding: { values: response.embeddings[0] ?? [] } };
}
