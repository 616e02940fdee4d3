import { randomId } from '../http-io';
import type { ReplyPlan, SimFinish, SimToolCall } from '../reply-plan';
import { thinkingSignature } from '../signatures';
import type { StreamFrame } from '../sse-stream';
import { groupTokenCount, groupTokens, splitArguments } from '../stream-pieces';
import { eventFrame } from './aws-event-stream-frames';

type IdentifiedCall = SimToolCall & { id: string };

const STOP_REASONS: Record<SimFinish, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  stop_sequence: 'stop_sequence',
  tool_calls: 'tool_use',
  content_filter: 'content_filtered',
};

/** Bedrock's tool-use ids look like `tooluse_` and 22 characters. */
export function identifyConverseToolUses(calls: readonly SimToolCall[]): IdentifiedCall[] {
  return calls.map((call) => ({ ...call, id: call.id ?? `tooluse_${randomId(22)}` }));
}

function signatureOf(plan: ReplyPlan): string {
  return plan.thinking?.signature ?? thinkingSignature('bedrock-converse', plan.thinking?.text ?? '');
}

/**
 * Bedrock's usage: `inputTokens` leaves out what was read from or written to the cache,
 * `totalTokens` adds everything, and `cacheDetails` (1 h before 5 m) breaks down the writes when
 * there were any.
 */
export function renderConverseUsage(plan: Pick<ReplyPlan, 'usage' | 'cacheWrite'>): Record<string, unknown> {
  const { usage } = plan;
  const fiveMinute = plan.cacheWrite?.fiveMinute ?? 0;
  const oneHour = plan.cacheWrite?.oneHour ?? 0;
  const input = Math.max(0, usage.input - usage.cached - fiveMinute - oneHour);
  const rendered: Record<string, unknown> = {
    inputTokens: input,
    outputTokens: usage.output,
    totalTokens: input + usage.output + usage.cached + fiveMinute + oneHour,
    cacheReadInputTokens: usage.cached,
    cacheWriteInputTokens: fiveMinute + oneHour,
  };
  const details = [
    ...(oneHour > 0 ? [{ ttl: '1h', inputTokens: oneHour }] : []),
    ...(fiveMinute > 0 ? [{ ttl: '5m', inputTokens: fiveMinute }] : []),
  ];
  if (details.length > 0) rendered['cacheDetails'] = details;
  return rendered;
}

export function renderConverseResponse(plan: ReplyPlan, calls: IdentifiedCall[], latencyMs: number): Record<string, unknown> {
  const content: Record<string, unknown>[] = [];
  if (plan.thinking) content.push({ reasoningContent: { reasoningText: { text: plan.thinking.text, signature: signatureOf(plan) } } });
  if (plan.text !== '') content.push({ text: plan.text });
  for (const call of calls) content.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments } });
  return {
    output: { message: { role: 'assistant', content } },
    stopReason: STOP_REASONS[plan.finish],
    usage: renderConverseUsage(plan),
    metrics: { latencyMs },
  };
}

/**
 * ConverseStream: messageStart; per block its deltas (a tool call opens with contentBlockStart,
 * reasoning ends with its signature delta) and contentBlockStop; messageStop with the stop reason;
 * metadata with usage and metrics.
 */
export function renderConverseStream(plan: ReplyPlan, calls: IdentifiedCall[], chunkTokens: number, latencyMs: number): StreamFrame[] {
  const frames: StreamFrame[] = [{ data: eventFrame('messageStart', { role: 'assistant' }), tokens: 0, phase: 'open' }];
  let index = 0;
  const delta = (contentBlockIndex: number, body: Record<string, unknown>, tokens: number): StreamFrame => ({ data: eventFrame('contentBlockDelta', { contentBlockIndex, delta: body }), tokens, phase: 'body' });
  const stop = (contentBlockIndex: number): StreamFrame => ({ data: eventFrame('contentBlockStop', { contentBlockIndex }), tokens: 0, phase: 'body' });
  if (plan.thinking) {
    for (const group of groupTokens(plan.thinking.text, chunkTokens)) frames.push(delta(index, { reasoningContent: { text: group } }, groupTokenCount(group)));
    frames.push(delta(index, { reasoningContent: { signature: signatureOf(plan) } }, 0), stop(index));
    index += 1;
  }
  if (plan.text !== '') {
    for (const group of groupTokens(plan.text, chunkTokens)) frames.push(delta(index, { text: group }, groupTokenCount(group)));
    frames.push(stop(index));
    index += 1;
  }
  for (const call of calls) {
    frames.push({ data: eventFrame('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: call.id, name: call.name } } }), tokens: 0, phase: 'body' });
    for (const piece of splitArguments(JSON.stringify(call.arguments), chunkTokens)) frames.push(delta(index, { toolUse: { input: piece } }, Math.ceil(piece.length / 4)));
    frames.push(stop(index));
    index += 1;
  }
  frames.push({ data: eventFrame('messageStop', { stopReason: STOP_REASONS[plan.finish] }), tokens: 0, phase: 'close' });
  frames.push({ data: eventFrame('metadata', { usage: renderConverseUsage(plan), metrics: { latencyMs } }), tokens: 0, phase: 'close' });
  return frames;
}
