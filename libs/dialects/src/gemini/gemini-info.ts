import { estimatePromptTokens } from '@rosetta/limits';
import { isRecord } from '@rosetta/protocols/common';
import { convertGeminiRequest, normalizeGeminiRequest } from '@rosetta/protocols/gemini';
import type { RegistryModel, RegistryService } from '@rosetta/registry';
import type { RoutingService } from '@rosetta/routing';
import { decodePathPart } from '../common/decode-path';
import { requireObjectBody } from '../common/request-validation';
import { validateGeminiGenerateContentRequest } from './gemini.validate';

/** Dialect C's `GET /v1beta/models`: every model in Google's model shape. */
export function geminiModelList(registry: RegistryService): Record<string, unknown> {
  return { models: registry.list().map(toGeminiModel) };
}

/** `GET /v1beta/models/{id}`: `tail` is the raw rest of the path (the id may hold slashes). */
export function geminiModel(registry: RegistryService, tail: string, path: string): Record<string, unknown> {
  return toGeminiModel(registry.resolve(decodePathPart(tail, path), 'model'));
}

/** `:countTokens` with `{contents}` or `{generateContentRequest: {...}}`, answered with a tokenizer estimate. */
export function geminiCountTokens(routing: RoutingService, raw: unknown, model: string): Record<string, unknown> {
  const body = normalizeGeminiRequest(requireObjectBody(raw));
  const inner = validateGeminiGenerateContentRequest(isRecord(body['generateContentRequest']) ? body['generateContentRequest'] : body);
  const { value: request } = convertGeminiRequest({ body: inner, model, stream: false });
  routing.resolveModels(request);
  return { totalTokens: estimatePromptTokens(request) };
}

function toGeminiModel(model: RegistryModel): Record<string, unknown> {
  const top = model.endpoints[0];
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.displayName,
    description: model.description,
    inputTokenLimit: top?.contextLength ?? 1_048_576,
    outputTokenLimit: top?.maxCompletionTokens ?? 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}
