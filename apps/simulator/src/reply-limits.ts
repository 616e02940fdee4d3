import type { PromptCacheOutcome } from './prompt-cache/prompt-cache-types';
import type {
  NeutralMessage,
  NeutralRequest,
  ReplyPlan,
  ReplySource,
  SimFinish,
  SimReply,
  SimThinking,
  SimToolCall,
  SimUsage,
} from './reply-plan';

/**
 * The simulator's tokeniser: a token is a whitespace-separated word plus the whitespace after
 * it, so the tokens of a text concatenate back to exactly that text.
 */
export function tokenize(text: string): string[] {
  if (text === '') return [];
  const tokens = text.match(/\S+\s*/g);
  if (!tokens) return [text];
  const leading = /^\s+/.exec(text)?.[0];
  if (leading) tokens[0] = leading + (tokens[0] ?? '');
  return tokens;
}

export function toolCallTokens(call: SimToolCall): number {
  return Math.ceil(JSON.stringify(call.arguments).length / 4);
}

interface Output {
  text: string;
  thinking?: SimThinking;
  toolCalls: SimToolCall[];
  finish: SimFinish;
  stopSequence?: string;
}

/** Applies parallel-call, stop-sequence and max-token limits, then computes usage (with the cache's share, if any). */
export function applyLimits(request: NeutralRequest, reply: SimReply, source: ReplySource, cache?: PromptCacheOutcome): ReplyPlan {
  let toolCalls = reply.toolCalls ?? [];
  if (request.parallelToolCalls === false) toolCalls = toolCalls.slice(0, 1);
  let output: Output = {
    text: reply.text ?? '',
    thinking: reply.thinking,
    toolCalls,
    finish: reply.finish ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
    stopSequence: reply.stopSequence,
  };
  output = cutAtStopSequence(output, request.stopSequences ?? []);
  if (request.maxTokens !== undefined) output = capToMaxTokens(output, request.maxTokens);
  const reported = reportedCache(reply.usage, cache);
  return withoutUndefined({
    source,
    ...output,
    usage: computeUsage(request.messages, output, reply.usage, reported?.read ?? 0),
    cacheWrite: reported && reported.write.fiveMinute + reported.write.oneHour > 0 ? reported.write : undefined,
    error: reply.error,
    streamErrorAfterChunks: reply.streamErrorAfterChunks,
    dropConnectionAfterChunks: reply.dropConnectionAfterChunks,
    latencyMs: reply.latencyMs,
    tokensPerSecond: reply.tokensPerSecond,
    fault: reply.fault,
  });
}

/** The model stops at the earliest stop sequence, so nothing after it (tool calls included) exists. */
function cutAtStopSequence(output: Output, stops: readonly string[]): Output {
  let cut: { index: number; sequence: string } | undefined;
  for (const sequence of stops) {
    if (sequence === '') continue;
    const index = output.text.indexOf(sequence);
    if (index >= 0 && (cut === undefined || index < cut.index)) cut = { index, sequence };
  }
  if (!cut) return output;
  return {
    ...output,
    text: output.text.slice(0, cut.index),
    toolCalls: [],
    finish: 'stop_sequence',
    stopSequence: cut.sequence,
  };
}

/**
 * Spends the budget in generation order: thinking, then text, then whole tool calls. Whatever
 * does not fit is cut (text, thinking) or dropped (tool calls) and the finish becomes `length`.
 */
function capToMaxTokens(output: Output, maxTokens: number): Output {
  let budget = maxTokens;
  const truncated: Output = { ...output, finish: 'length', stopSequence: undefined };
  if (output.thinking) {
    const words = tokenize(output.thinking.text);
    if (words.length > budget) {
      const thinking = { ...output.thinking, text: words.slice(0, budget).join('') };
      return { ...truncated, thinking, text: '', toolCalls: [] };
    }
    budget -= words.length;
  }
  const tokens = tokenize(output.text);
  if (tokens.length > budget) {
    return { ...truncated, text: tokens.slice(0, budget).join(''), toolCalls: [] };
  }
  budget -= tokens.length;
  const kept: SimToolCall[] = [];
  for (const call of output.toolCalls) {
    const cost = toolCallTokens(call);
    if (cost > budget) return { ...truncated, toolCalls: kept };
    kept.push(call);
    budget -= cost;
  }
  return output;
}

/** Input tokens of a conversation: ceil(characters of message texts and tool results / 4), at least 1. */
export function countInputTokens(messages: readonly NeutralMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += message.text.length;
    for (const result of message.toolResults ?? []) chars += result.text.length;
  }
  return Math.max(1, Math.ceil(chars / 4));
}

/**
 * The cache's numbers are in the simulator's own token estimate, so they are reported only when
 * the script leaves the prompt's count alone: a scripted `input` or `cached` wins outright.
 */
function reportedCache(scripted: SimUsage | undefined, cache: PromptCacheOutcome | undefined): PromptCacheOutcome | undefined {
  if (!cache || scripted?.input !== undefined || scripted?.cached !== undefined) return undefined;
  return cache;
}

function computeUsage(
  messages: readonly NeutralMessage[],
  output: Output,
  scripted: SimUsage | undefined,
  cached: number,
): Required<SimUsage> {
  const reasoning = output.thinking ? tokenize(output.thinking.text).length : 0;
  let toolTokens = 0;
  for (const call of output.toolCalls) toolTokens += toolCallTokens(call);
  const computed: Required<SimUsage> = {
    input: countInputTokens(messages),
    output: tokenize(output.text).length + toolTokens + reasoning,
    cached,
    reasoning,
  };
  return { ...computed, ...withoutUndefined(scripted ?? {}) };
}

/** Drops keys whose value is undefined, so spreads and JSON never carry them. */
export function withoutUndefined<T extends object>(value: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (entry !== undefined) copy[key] = entry;
  }
  return copy as T;
}
