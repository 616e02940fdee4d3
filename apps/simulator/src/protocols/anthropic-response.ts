import { randomId } from '../http-io';
import type { ReplyPlan, SimError, SimFinish, SimToolCall } from '../reply-plan';
import { thinkingSignature } from '../signatures';
import type { StreamFrame } from '../sse-stream';
import { groupTokenCount, groupTokens, splitArguments } from '../stream-pieces';

export interface AnthropicContext {
  id: string;
  model: string;
}

export interface AnthropicErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}

type IdentifiedCall = SimToolCall & { id: string };

export function newAnthropicContext(model: string): AnthropicContext {
  return { id: `msg_sim_${randomId(24)}`, model };
}

export function identifyToolUses(calls: readonly SimToolCall[]): IdentifiedCall[] {
  return calls.map((call) => ({ ...call, id: call.id ?? `toolu_sim_${randomId(24)}` }));
}

const STOP_REASONS: Record<SimFinish, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

function stopSequence(plan: ReplyPlan): string | null {
  return plan.finish === 'stop_sequence' ? (plan.stopSequence ?? null) : null;
}

/**
 * The prompt's share of Anthropic's usage: the neutral input counts every prompt token, Anthropic's
 * `input_tokens` only those neither read from nor written to the cache, so the three add up to it.
 */
function promptUsage(plan: Pick<ReplyPlan, 'usage' | 'cacheWrite'>): Record<string, unknown> {
  const fiveMinute = plan.cacheWrite?.fiveMinute ?? 0;
  const oneHour = plan.cacheWrite?.oneHour ?? 0;
  return {
    input_tokens: Math.max(0, plan.usage.input - plan.usage.cached - fiveMinute - oneHour),
    cache_creation_input_tokens: fiveMinute + oneHour,
    cache_read_input_tokens: plan.usage.cached,
    cache_creation: { ephemeral_5m_input_tokens: fiveMinute, ephemeral_1h_input_tokens: oneHour },
  };
}

export function renderAnthropicUsage(plan: Pick<ReplyPlan, 'usage' | 'cacheWrite'>): Record<string, unknown> {
  return { ...promptUsage(plan), output_tokens: plan.usage.output, service_tier: 'standard' };
}

function signatureOf(plan: ReplyPlan): string {
  return plan.thinking?.signature ?? thinkingSignature('anthropic', plan.thinking?.text ?? '');
}

export function renderMessage(plan: ReplyPlan, ctx: AnthropicContext, calls: IdentifiedCall[]): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (plan.thinking) content.push({ type: 'thinking', thinking: plan.thinking.text, signature: signatureOf(plan) });
  if (plan.text !== '') content.push({ type: 'text', text: plan.text, citations: null });
  for (const call of calls) content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  return {
    id: ctx.id,
    type: 'message',
    role: 'assistant',
    model: ctx.model,
    content,
    stop_reason: STOP_REASONS[plan.finish],
    stop_sequence: stopSequence(plan),
    usage: renderAnthropicUsage(plan),
  };
}

/**
 * One stream event before its framing, `type` first as Anthropic writes it: the public API frames
 * it as SSE, Bedrock's invoke stream as an event-stream chunk.
 */
export interface AnthropicStreamEvent {
  data: Record<string, unknown>;
  tokens: number;
  phase: StreamFrame['phase'];
}

function event(type: string, payload: Record<string, unknown>): Record<string, unknown> {
  return { type, ...payload };
}

/** One content block's frames: start, deltas, stop. */
interface BlockFrames {
  start: Record<string, unknown>;
  deltas: Array<{ delta: Record<string, unknown>; tokens: number }>;
}

function blocksOf(plan: ReplyPlan, calls: IdentifiedCall[], chunkTokens: number): BlockFrames[] {
  const blocks: BlockFrames[] = [];
  const textDeltas = (type: 'thinking_delta' | 'text_delta', field: string, text: string): BlockFrames['deltas'] =>
    groupTokens(text, chunkTokens).map((group) => ({ delta: { type, [field]: group }, tokens: groupTokenCount(group) }));
  if (plan.thinking) {
    const deltas = textDeltas('thinking_delta', 'thinking', plan.thinking.text);
    deltas.push({ delta: { type: 'signature_delta', signature: signatureOf(plan) }, tokens: 0 });
    blocks.push({ start: { type: 'thinking', thinking: '' }, deltas });
  }
  if (plan.text !== '') blocks.push({ start: { type: 'text', text: '' }, deltas: textDeltas('text_delta', 'text', plan.text) });
  for (const call of calls) {
    const pieces = splitArguments(JSON.stringify(call.arguments), chunkTokens);
    blocks.push({
      start: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      deltas: [
        { delta: { type: 'input_json_delta', partial_json: '' }, tokens: 0 },
        ...pieces.map((piece) => ({ delta: { type: 'input_json_delta', partial_json: piece }, tokens: Math.ceil(piece.length / 4) })),
      ],
    });
  }
  return blocks;
}

/**
 * The whole stream: message_start, then per block content_block_start / *_delta… /
 * content_block_stop (a ping after the first start, as the real API sends it), message_delta
 * with the cumulative output tokens, message_stop.
 */
export function anthropicStreamEvents(plan: ReplyPlan, ctx: AnthropicContext, calls: IdentifiedCall[], chunkTokens: number): AnthropicStreamEvent[] {
  const startUsage = { ...promptUsage(plan), output_tokens: Math.min(1, plan.usage.output) };
  const message = { id: ctx.id, type: 'message', role: 'assistant', model: ctx.model, content: [], stop_reason: null, stop_sequence: null, usage: startUsage };
  const frames: AnthropicStreamEvent[] = [{ data: event('message_start', { message }), tokens: 0, phase: 'open' }];
  const ping: AnthropicStreamEvent = { data: event('ping', {}), tokens: 0, phase: 'open' };
  const blocks = blocksOf(plan, calls, chunkTokens);
  if (blocks.length === 0) frames.push(ping);
  blocks.forEach((block, index) => {
    frames.push({ data: event('content_block_start', { index, content_block: block.start }), tokens: 0, phase: index === 0 ? 'open' : 'body' });
    if (index === 0) frames.push(ping);
    for (const { delta, tokens } of block.deltas) {
      frames.push({ data: event('content_block_delta', { index, delta }), tokens, phase: 'body' });
    }
    frames.push({ data: event('content_block_stop', { index }), tokens: 0, phase: 'body' });
  });
  const delta = { stop_reason: STOP_REASONS[plan.finish], stop_sequence: stopSequence(plan) };
  frames.push({ data: event('message_delta', { delta, usage: { output_tokens: plan.usage.output } }), tokens: 0, phase: 'close' });
  frames.push({ data: event('message_stop', {}), tokens: 0, phase: 'close' });
  return frames;
}

/** The public API's stream: each event as `event:` and `data:` lines. */
export function renderAnthropicStream(plan: ReplyPlan, ctx: AnthropicContext, calls: IdentifiedCall[], chunkTokens: number): StreamFrame[] {
  return anthropicStreamEvents(plan, ctx, calls, chunkTokens).map(({ data, tokens, phase }) => ({ data: `event: ${String(data['type'])}\ndata: ${JSON.stringify(data)}\n\n`, tokens, phase }));
}

export function anthropicStreamError(type: 'overloaded_error' | 'api_error', message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
}

/** A delta event whose data is not JSON (the `garbage` fault). */
export function anthropicGarbageEvent(text: string): string {
  return `event: content_block_delta\ndata: ${text}\n\n`;
}

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export function anthropicErrorType(status: number): string {
  return ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function anthropicError(type: string, message: string, requestId: string): AnthropicErrorBody {
  return { type: 'error', error: { type, message }, request_id: requestId };
}

/** A planned error in Anthropic's envelope; the type follows the status unless scripted. */
export function renderAnthropicPlannedError(
  error: SimError,
  requestId: string,
): { status: number; body: AnthropicErrorBody; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return { status: error.status, body: anthropicError(error.type ?? anthropicErrorType(error.status), error.message, requestId), headers };
}
