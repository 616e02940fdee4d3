/**
 * The response object around the output: what the client asked for, echoed as OpenAI echoes it
 * (its defaults filled in), with the served model, the status and the usage.
 */
import type { FinishReason, Usage } from '@rosetta/canonical';
import { isRecord, type JsonObject } from '@rosetta/protocols/common';

export type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';

export interface ResponseHead {
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The served public model id. */
  model: string;
  /** The request body as the client sent it (its own `previous_response_id`, `store`, …). */
  body: JsonObject;
}

export interface EnvelopeExtra {
  usage?: Usage;
  error?: { code: string; message: string };
  finish?: FinishReason;
  /** Unix seconds the answer finished; the envelope carries it only when completed. */
  completedAt?: number;
}

export function responseEnvelope(head: ResponseHead, status: ResponseStatus, output: unknown[], extra: EnvelopeExtra = {}): JsonObject {
  const { body } = head;
  const echo = (key: string, fallback: unknown): unknown => (body[key] === undefined ? fallback : body[key]);
  const reasoning = isRecord(body['reasoning']) ? body['reasoning'] : {};
  const text = isRecord(body['text']) ? body['text'] : {};
  return {
    id: head.id,
    object: 'response',
    created_at: head.createdAt,
    completed_at: status === 'completed' ? (extra.completedAt ?? head.createdAt) : null,
    status,
    background: false,
    error: extra.error ?? null,
    frequency_penalty: echo('frequency_penalty', 0),
    incomplete_details: status === 'incomplete' ? { reason: incompleteReason(extra.finish) } : null,
    instructions: echo('instructions', null),
    max_output_tokens: echo('max_output_tokens', null),
    max_tool_calls: echo('max_tool_calls', null),
    model: head.model,
    output,
    parallel_tool_calls: echo('parallel_tool_calls', true),
    presence_penalty: echo('presence_penalty', 0),
    previous_response_id: echo('previous_response_id', null),
    prompt_cache_key: echo('prompt_cache_key', null),
    reasoning: { effort: reasoning['effort'] ?? null, summary: reasoning['summary'] ?? null },
    safety_identifier: echo('safety_identifier', null),
    service_tier: 'default',
    store: echo('store', true),
    temperature: echo('temperature', 1),
    text: { format: text['format'] ?? { type: 'text' }, verbosity: text['verbosity'] ?? 'medium' },
    tool_choice: echo('tool_choice', 'auto'),
    tools: Array.isArray(body['tools']) ? body['tools'].map(echoTool) : [],
    top_logprobs: echo('top_logprobs', 0),
    top_p: echo('top_p', 1),
    truncation: echo('truncation', 'disabled'),
    usage: extra.usage ? toResponsesUsage(extra.usage) : null,
    user: echo('user', null),
    metadata: echo('metadata', {}),
  };
}

/**
 * A tool as the response describes it, not as the client sent it: a function tool always has
 * `description`, `parameters` and `strict` (the Responses API's default, true). Other tool types
 * have no such fields and go back as they came.
 */
function echoTool(tool: unknown): unknown {
  if (!isRecord(tool) || tool['type'] !== 'function') return tool;
  return { ...tool, description: tool['description'] ?? null, parameters: tool['parameters'] ?? null, strict: tool['strict'] ?? true };
}

/** Unix seconds now: when an answer is completed. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The response's status for a finished answer. */
export function statusFor(finish: FinishReason): ResponseStatus {
  switch (finish.unified) {
    case 'length':
    case 'content_filter':
    case 'context_window_exceeded':
      return 'incomplete';
    case 'error':
      return 'failed';
    default:
      return 'completed';
  }
}

function incompleteReason(finish: FinishReason | undefined): string {
  return finish?.unified === 'content_filter' ? 'content_filter' : 'max_output_tokens';
}

/**
 * Usage in the Responses shape. Codex fails a turn whose usage lacks `cached_tokens`, so the
 * details are always there, zero when unknown.
 */
export function toResponsesUsage(usage: Usage): JsonObject {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
    ...(usage.costUsd !== undefined ? { cost: usage.costUsd } : {}),
  };
}
