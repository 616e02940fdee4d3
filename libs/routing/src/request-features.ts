import { UPSTREAM_PROTOCOLS } from '@rosetta/protocols/upstreams';
import type { CanonicalRequest } from '@rosetta/canonical';

/** What a request needs from an endpoint, computed once per request. */
export interface RequestFeatures {
  promptTokens: number;
  maxOutputTokens?: number;
  tools: boolean;
  images: boolean;
  reasoning: boolean;
  /** Request parameters in use, by their OpenRouter names (for provider_require_parameters). */
  parameters: string[];
}

export function requestFeatures(request: CanonicalRequest, promptTokens: number): RequestFeatures {
  const images = request.messages.some((m) => m.role === 'user' && m.content.some((p) => p.type === 'image'));
  const parameters: string[] = [];
  const add = (name: string, present: unknown): void => {
    if (present !== undefined && present !== false) parameters.push(name);
  };
  add('tools', request.tools?.length ? true : undefined);
  add('tool_choice', request.toolChoice);
  add('temperature', request.temperature);
  add('top_p', request.topP);
  add('top_k', request.topK);
  add('stop', request.stopSequences?.length ? true : undefined);
  add('seed', request.seed);
  add('frequency_penalty', request.frequencyPenalty);
  add('presence_penalty', request.presencePenalty);
  add('response_format', request.responseFormat);
  add('reasoning', request.thinking?.enabled ? true : undefined);
  add('max_tokens', request.maxOutputTokens);
  return { promptTokens, maxOutputTokens: request.maxOutputTokens, tools: Boolean(request.tools?.length), images, reasoning: Boolean(request.thinking?.enabled), parameters };
}

/** Parameters each upstream protocol can carry at all (the rest are dropped with a warning): its descriptor's. */
export const PROTOCOL_PARAMETERS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(UPSTREAM_PROTOCOLS.map((p) => [p.id, p.parameters]));
