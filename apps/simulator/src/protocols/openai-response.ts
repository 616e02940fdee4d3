import { randomId } from '../http-io';
import type { ReplyPlan, SimError, SimFinish, SimToolCall, SimUsage } from '../reply-plan';
import type { StreamFrame } from '../sse-stream';
import { groupTokenCount, groupTokens, splitArguments } from '../stream-pieces';

export const SYSTEM_FINGERPRINT = 'fp_simulator';

export interface OpenAiContext {
  id: string;
  created: number;
  model: string;
}

export interface OpenAiError {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

type IdentifiedCall = SimToolCall & { id: string };

export function newContext(model: string): OpenAiContext {
  return { id: `chatcmpl-sim-${randomId(24)}`, created: Math.floor(Date.now() / 1000), model };
}

/** Ids are fixed once per response so the stream and any retry of rendering agree. */
export function identifyToolCalls(calls: readonly SimToolCall[]): IdentifiedCall[] {
  return calls.map((call) => ({ ...call, id: call.id ?? `call_${randomId(24)}` }));
}

/** `stop_sequence` is a neutral distinction OpenAI does not make. */
export function openAiFinishReason(finish: SimFinish): string {
  return finish === 'stop_sequence' ? 'stop' : finish;
}

export function renderUsage(usage: Required<SimUsage>): Record<string, unknown> {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cached, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

function renderToolCall(call: IdentifiedCall): Record<string, unknown> {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } };
}

export function renderCompletion(plan: ReplyPlan, ctx: OpenAiContext, calls: IdentifiedCall[]): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.text === '' && calls.length > 0 ? null : plan.text,
    refusal: null,
    annotations: [],
  };
  if (plan.thinking) message['reasoning_content'] = plan.thinking.text;
  if (calls.length > 0) message['tool_calls'] = calls.map(renderToolCall);
  return {
    id: ctx.id,
    object: 'chat.completion',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    service_tier: 'default',
    choices: [{ index: 0, message, logprobs: null, finish_reason: openAiFinishReason(plan.finish) }],
    usage: renderUsage(plan.usage),
  };
}

function sse(payload: unknown): string {
  return `data: ${JSON.stringify(payload)}\n\n`;
}

function chunk(ctx: OpenAiContext, delta: Record<string, unknown>, finishReason: string | null): string {
  return sse({
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });
}

function toolCallFrames(ctx: OpenAiContext, calls: IdentifiedCall[], chunkTokens: number): StreamFrame[] {
  const frames: StreamFrame[] = [];
  calls.forEach((call, index) => {
    const head = { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
    frames.push({ data: chunk(ctx, { tool_calls: [head] }, null), tokens: 0, phase: 'body' });
    for (const piece of splitArguments(JSON.stringify(call.arguments), chunkTokens)) {
      const fragment = { index, function: { arguments: piece } };
      frames.push({ data: chunk(ctx, { tool_calls: [fragment] }, null), tokens: Math.ceil(piece.length / 4), phase: 'body' });
    }
  });
  return frames;
}

export interface StreamRenderOptions {
  chunkTokens: number;
  includeUsage: boolean;
}

/** The whole stream as frames: role, reasoning, content, tool calls, finish, usage, [DONE]. */
export function renderStreamFrames(
  plan: ReplyPlan,
  ctx: OpenAiContext,
  calls: IdentifiedCall[],
  options: StreamRenderOptions,
): StreamFrame[] {
  const frames: StreamFrame[] = [
    { data: chunk(ctx, { role: 'assistant', content: '', refusal: null }, null), tokens: 0, phase: 'open' },
  ];
  const textFrames = (field: string, text: string): void => {
    for (const group of groupTokens(text, options.chunkTokens)) {
      frames.push({ data: chunk(ctx, { [field]: group }, null), tokens: groupTokenCount(group), phase: 'body' });
    }
  };
  if (plan.thinking) textFrames('reasoning_content', plan.thinking.text);
  textFrames('content', plan.text);
  frames.push(...toolCallFrames(ctx, calls, options.chunkTokens));
  frames.push({ data: chunk(ctx, {}, openAiFinishReason(plan.finish)), tokens: 0, phase: 'close' });
  if (options.includeUsage) {
    const usageChunk = {
      id: ctx.id,
      object: 'chat.completion.chunk',
      created: ctx.created,
      model: ctx.model,
      system_fingerprint: SYSTEM_FINGERPRINT,
      choices: [],
      usage: renderUsage(plan.usage),
    };
    frames.push({ data: sse(usageChunk), tokens: 0, phase: 'close' });
  }
  frames.push({ data: 'data: [DONE]\n\n', tokens: 0, phase: 'close' });
  return frames;
}

export function inStreamError(message: string): string {
  return sse({ error: { message, type: 'server_error', param: null, code: null } });
}

/** A `data:` event whose payload is not JSON (the `garbage` fault). */
export function garbageEvent(text: string): string {
  return `data: ${text}\n\n`;
}

/** How OpenAI reports a planned error: status, envelope and the headers its SDK reads. */
export function renderPlannedError(error: SimError): {
  status: number;
  body: { error: OpenAiError };
  headers: Record<string, string>;
} {
  const fallbackType = error.status >= 500 ? 'server_error' : 'invalid_request_error';
  const code = error.status === 429 ? 'rate_limit_exceeded' : null;
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return {
    status: error.status,
    body: { error: { message: error.message, type: error.type ?? fallbackType, param: null, code } },
    headers,
  };
}
