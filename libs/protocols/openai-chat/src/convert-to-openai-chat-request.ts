/**
 * Canonical request → OpenAI Chat Completions body for an upstream.
 *
 * Fast path: a request that came in as dialect A is forwarded as the client sent it, with only the
 * model and routing fields rewritten, so fields Rosetta does not model (`logit_bias`,
 * `prediction`, vendor extensions) still reach the upstream.
 */
import {
  ROUTING_FIELD_NAMES,
  type CanonicalRequest,
  type Converted,
  type ResponseFormat,
  type ThinkingConfig,
  type ToolChoice,
  type TranslationWarning,
} from '@rosetta/canonical';
import type {
  ChatCompletionCreateParams,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages';
import { compact, isRecord, withoutGatewayTags } from '@rosetta/protocols/common';

export function convertToOpenAIChatRequest({
  request,
  upstreamModel,
  reasoning,
}: {
  request: CanonicalRequest;
  upstreamModel: string;
  /** Whether the endpoint reasons (from the registry); undefined when unknown. */
  reasoning?: boolean;
}): Converted<Record<string, unknown>> {
  if (request.passthrough?.protocol === 'openai') {
    return { value: withPromptCacheKey(forwardPassthrough(request.passthrough.body, upstreamModel, request.stream), request), warnings: [] };
  }
  const messages = convertToOpenAIChatMessages({ messages: request.messages });
  const warnings: TranslationWarning[] = [...messages.warnings];
  if (request.topK !== undefined) {
    warnings.push({ feature: 'top_k', message: 'Chat Completions has no top_k; dropped.' });
  }
  const body: Record<string, unknown> = compact({
    model: upstreamModel,
    messages: messages.value,
    tools: request.tools?.map(toTool),
    tool_choice: request.toolChoice && toToolChoice(request.toolChoice),
    parallel_tool_calls: request.parallelToolCalls,
    max_completion_tokens: request.maxOutputTokens,
    temperature: request.temperature,
    top_p: request.topP,
    stop: request.stopSequences,
    seed: request.seed,
    frequency_penalty: request.frequencyPenalty,
    presence_penalty: request.presencePenalty,
    n: request.candidateCount,
    response_format: request.responseFormat && toResponseFormat(request.responseFormat),
    reasoning_effort: request.thinking && reasoningEffortFor(request.thinking, reasoning, warnings),
    user: request.user,
    prompt_cache_key: request.promptCacheKey,
    ...streamFields(request.stream),
  });
  return { value: body, warnings };
}

/**
 * The session's cache key (`prompt_cache: auto`) on a forwarded body that names none: OpenAI then
 * routes the session's requests to the machine that holds its prefix.
 */
export function withPromptCacheKey<T extends Record<string, unknown>>(body: T, request: Pick<CanonicalRequest, 'promptCacheKey'>): T {
  if (request.promptCacheKey !== undefined && body['prompt_cache_key'] === undefined) (body as Record<string, unknown>)['prompt_cache_key'] = request.promptCacheKey;
  return body;
}

function forwardPassthrough(original: Record<string, unknown>, upstreamModel: string, stream: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = { ...withoutGatewayTags(original, true) };
  for (const name of ROUTING_FIELD_NAMES) delete body[name];
  body['model'] = upstreamModel;
  if (stream) {
    const existing = isRecord(body['stream_options']) ? body['stream_options'] : {};
    body['stream'] = true;
    // Usage must always come back: it settles the token budget and the request log.
    body['stream_options'] = { ...existing, include_usage: true };
  } else if (body['stream'] !== undefined) {
    // The caller may fetch a non-streamed answer for a streaming client; OpenAI refuses
    // stream_options on such a request.
    body['stream'] = false;
    delete body['stream_options'];
  }
  return body;
}

function streamFields(stream: boolean): Pick<ChatCompletionCreateParams, 'stream' | 'stream_options'> {
  return stream ? { stream: true, stream_options: { include_usage: true } } : {};
}

function toTool(tool: NonNullable<CanonicalRequest['tools']>[number]): ChatCompletionTool {
  return {
    type: 'function',
    function: compact({
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: tool.strict,
    }),
  };
}

function toToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return choice.type === 'tool' ? { type: 'function', function: { name: choice.name } } : choice.type;
}

function toResponseFormat(format: ResponseFormat): ChatCompletionCreateParams['response_format'] {
  if (format.type !== 'json_schema') return { type: format.type };
  return {
    type: 'json_schema',
    json_schema: compact({
      // OpenAI requires a name; other dialects have none to give.
      name: format.name ?? 'response',
      description: format.description,
      schema: format.schema,
      strict: format.strict,
    }),
  };
}

/** Budgets up to these sizes read as these efforts (the inverse of the Anthropic side's table). */
const BUDGET_EFFORTS: Array<[number, string]> = [
  [2048, 'low'],
  [8192, 'medium'],
];

/**
 * The reasoning effort for the endpoint. An explicit effort is forwarded, except to an endpoint the
 * registry knows does not reason (OpenAI refuses the field there). A token budget (Anthropic,
 * Gemini) becomes the nearest effort when the endpoint reasons, and is dropped otherwise; each
 * change is named in a warning.
 */
export function reasoningEffortFor(thinking: ThinkingConfig, reasoning: boolean | undefined, warnings: TranslationWarning[], api = 'Chat Completions'): string | undefined {
  if (thinking.effort !== undefined) {
    if (reasoning !== false) return thinking.enabled ? thinking.effort : 'none';
    if (thinking.enabled) warnings.push({ feature: 'thinking', message: 'This model does not reason; reasoning_effort dropped.' });
    return undefined;
  }
  if (!thinking.enabled || thinking.budgetTokens === undefined) return undefined;
  if (reasoning === true) {
    const budget = thinking.budgetTokens;
    const effort = BUDGET_EFFORTS.find(([upTo]) => budget <= upTo)?.[1] ?? 'high';
    warnings.push({ feature: 'thinking', message: `${api} takes a reasoning effort, not a token budget; a budget of ${budget} tokens was sent as reasoning_effort "${effort}".` });
    return effort;
  }
  warnings.push({
    feature: 'thinking',
    message: reasoning === false
      ? 'This model does not reason; the thinking budget was dropped.'
      : `${api} takes a reasoning effort, not a token budget; the upstream default applies.`,
  });
  return undefined;
}
