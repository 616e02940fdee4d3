/**
 * A dialect-A embeddings body (`POST /v1/embeddings`) → the canonical embeddings request,
 * validated in the same pass: the first problem is a 400 naming the field. The body is kept as
 * `passthrough`, so an OpenAI-protocol upstream still receives fields Rosetta does not model
 * (vLLM's `truncate_prompt_tokens`, say).
 */
import type { EmbeddingInput, EmbeddingRequest } from '@rosetta/canonical';
import {
  checkInteger, checkOneOf, checkString, convertRoutingFields, invalid, optionalEndUser, required, requireObjectBody,
} from '@rosetta/protocols/common';

/** OpenAI's limit on inputs per request. */
export const MAX_OPENAI_EMBEDDING_INPUTS = 2048;
const INPUT_SHAPE = 'must be a string, an array of strings, an array of token ids, or an array of arrays of token ids';

export type EmbeddingEncoding = 'float' | 'base64';

/** The canonical request, and how the caller wants its vectors written back. */
export interface OpenAIEmbeddingsCall {
  request: EmbeddingRequest;
  encodingFormat: EmbeddingEncoding;
}

export function convertOpenAIEmbeddingsRequest({ body: raw }: { body: unknown }): OpenAIEmbeddingsCall {
  const body = requireObjectBody(raw);
  const routing = convertRoutingFields({ body });
  const model = required(body, 'model');
  checkString(model, 'model');
  checkOneOf(body['encoding_format'], 'encoding_format', ['float', 'base64']);
  checkInteger(body['dimensions'], 'dimensions', 1);
  const user = optionalEndUser(body, 'user');
  const request: EmbeddingRequest = {
    model: model as string,
    inputs: readInputs(required(body, 'input')),
    routing,
    passthrough: { protocol: 'openai', body },
  };
  const dimensions = body['dimensions'];
  if (typeof dimensions === 'number') request.dimensions = dimensions;
  if (user !== undefined) request.user = user;
  return { request, encodingFormat: body['encoding_format'] === 'base64' ? 'base64' : 'float' };
}

function readInputs(value: unknown): EmbeddingInput[] {
  if (typeof value === 'string') return [readText(value, 'input')];
  if (!Array.isArray(value)) invalid('input', INPUT_SHAPE);
  if (value.length === 0) invalid('input', 'must not be empty');
  // One array of token ids is one input, as OpenAI reads it.
  if (typeof value[0] === 'number') return [readTokens(value, 'input')];
  if (value.length > MAX_OPENAI_EMBEDDING_INPUTS) invalid('input', `must hold at most ${MAX_OPENAI_EMBEDDING_INPUTS} inputs, got ${value.length}`);
  return value.map((item, i) => {
    const path = `input[${i}]`;
    if (typeof item === 'string') return readText(item, path);
    if (Array.isArray(item)) return readTokens(item, path);
    return invalid(path, 'must be a string or an array of token ids');
  });
}

function readText(text: string, path: string): EmbeddingInput {
  if (text === '') invalid(path, 'must not be an empty string');
  return { type: 'text', text };
}

function readTokens(tokens: unknown[], path: string): EmbeddingInput {
  if (tokens.length === 0) invalid(path, 'must not be an empty array of token ids');
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (typeof token !== 'number' || !Number.isInteger(token) || token < 0 || token > 0xffffffff) invalid(`${path}[${i}]`, 'must be a token id (a whole number from 0)');
  }
  return { type: 'tokens', tokens: tokens as number[] };
}
