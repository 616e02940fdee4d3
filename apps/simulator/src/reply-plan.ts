import { guardReply } from './guard-replies';
import { parseSimReply, SimReplyError } from './parse-sim-reply';
import type { CacheWrite, PromptCacheOutcome } from './prompt-cache/prompt-cache-types';
import { applyLimits } from './reply-limits';
import { synthesiseArguments } from './synthesise-arguments';

// ---- What a reply should be, independent of any wire format --------------------------------

export type SimFinish = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'stop_sequence';

export interface SimThinking {
  text: string;
  signature?: string;
}

export interface SimToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface SimUsage {
  input?: number;
  output?: number;
  cached?: number;
  reasoning?: number;
}

export interface SimError {
  status: number;
  message: string;
  type?: string;
  retryAfterSeconds?: number;
}

/**
 * A transport fault, for chaos tests. `hang` never sends headers and `reset` destroys the socket
 * (TCP RST) before them; `half-body` declares the whole body's content-length, sends half, then
 * closes; `garbage` answers 200 with a body that is not the protocol's JSON (streams: one non-JSON
 * event after `afterChunks` content chunks, then the rest); `stall` goes silent after
 * `afterChunks` content chunks (non-streamed: after headers and half the body) and holds the
 * connection until the client leaves.
 */
export type SimFault =
  | { kind: 'hang' | 'reset' | 'half-body' }
  | { kind: 'garbage' | 'stall'; afterChunks?: number };

export type SimFaultKind = SimFault['kind'];

export interface SimReply {
  text?: string;
  thinking?: SimThinking;
  toolCalls?: SimToolCall[];
  finish?: SimFinish;
  stopSequence?: string;
  usage?: SimUsage;
  error?: SimError;
  /** Emit N content chunks, then an in-stream error. */
  streamErrorAfterChunks?: number;
  latencyMs?: number;
  tokensPerSecond?: number;
  /** Destroy the socket after N content chunks. */
  dropConnectionAfterChunks?: number;
  fault?: SimFault;
}

export interface Script {
  /** Substring looked for in the client's latest turn. */
  match: string;
  reply: SimReply;
  /** How many requests this script answers; unlimited when absent. */
  times?: number;
  /** Only requests for this (upstream) model; any model when absent. */
  model?: string;
}

// ---- What the request asked for, as each protocol module reports it ------------------------

export type NeutralRole = 'system' | 'user' | 'assistant' | 'tool';

export interface NeutralToolResult {
  /** The call this answers: a call id, or the function name where the protocol has no ids (Gemini). */
  toolCallId: string;
  /** The called tool's name, when the protocol says or the conversation shows it. */
  name?: string;
  text: string;
}

/**
 * `text` holds only the message's own text; tool results live in `toolResults` and are not
 * repeated in `text`, so character counts never count a result twice.
 */
export interface NeutralMessage {
  role: NeutralRole;
  text: string;
  toolCallIds?: string[];
  toolResults?: NeutralToolResult[];
}

export interface NeutralTool {
  name: string;
  /** JSON Schema of the arguments, unvalidated. */
  parameters?: unknown;
}

export type NeutralToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface NeutralRequest {
  model: string;
  messages: NeutralMessage[];
  tools: NeutralTool[];
  toolChoice: NeutralToolChoice;
  maxTokens?: number;
  stopSequences?: string[];
  stream: boolean;
  /** false keeps only the first tool call. */
  parallelToolCalls?: boolean;
  /** The request turned reasoning on; a reply without scripted thinking then gets default thinking. */
  thinkingEnabled?: boolean;
}

// ---- The decided plan, ready for a renderer -------------------------------------------------

export type ReplySource = 'script' | 'directive' | 'default';

export interface ReplyPlan {
  source: ReplySource;
  text: string;
  thinking?: SimThinking;
  toolCalls: SimToolCall[];
  finish: SimFinish;
  stopSequence?: string;
  usage: Required<SimUsage>;
  /**
   * Tokens the request wrote to the simulated prompt cache (Anthropic, Bedrock), part of
   * `usage.input` beside `usage.cached`; absent when nothing was written.
   */
  cacheWrite?: CacheWrite;
  error?: SimError;
  streamErrorAfterChunks?: number;
  dropConnectionAfterChunks?: number;
  latencyMs?: number;
  tokensPerSecond?: number;
  fault?: SimFault;
}

/** Where scripted replies come from; `take` consumes one use of the newest matching script. */
export interface ScriptSource {
  take(text: string, model?: string): SimReply | undefined;
}

const DIRECTIVE = /<sim>([\s\S]*?)<\/sim>/;
const DEFAULT_WORDS = 24;
const DEFAULT_THINKING_WORDS = 8;

/** Runs the request against the simulated prompt cache; called once per request that gets a reply. */
export type PromptCacheLookup = () => PromptCacheOutcome;

/**
 * Decides the reply: script, then inline directive, then defaults; limits apply to all. A reply
 * (not an error) goes through the prompt cache when the protocol gave one, so the cache holds
 * what the provider would have processed even when a script sets the usage it reports.
 */
export function planReply(request: NeutralRequest, scripts: ScriptSource, cache?: PromptCacheLookup): ReplyPlan {
  const turn = latestClientTurnText(request.messages);
  const decided = decideReply(request, turn, scripts);
  const reply = withDefaultThinking(request, decided.reply);
  const outcome = cache && !reply.error ? cache() : undefined;
  return applyLimits(request, reply, decided.source, outcome);
}

function decideReply(request: NeutralRequest, turn: string, scripts: ScriptSource): { reply: SimReply; source: ReplySource } {
  const scripted = scripts.take(turn, request.model);
  if (scripted) return { reply: scripted, source: 'script' };
  const directive = DIRECTIVE.exec(turn);
  if (directive) return { reply: readDirective(directive[1] ?? ''), source: 'directive' };
  return { reply: defaultReply(request), source: 'default' };
}

/**
 * A model with reasoning on always thinks first: when the request enables thinking and the reply
 * has none scripted, it gets `Considering: <first 8 words of the last user text>`. Scripted
 * thinking is kept whether or not the request enabled it; errors get none.
 */
function withDefaultThinking(request: NeutralRequest, reply: SimReply): SimReply {
  if (!request.thinkingEnabled || reply.thinking || reply.error) return reply;
  return { ...reply, thinking: { text: defaultThinkingText(request.messages) } };
}

export function defaultThinkingText(messages: readonly NeutralMessage[]): string {
  const words = lastUserText(messages).split(/\s+/).filter((word) => word !== '');
  return `Considering: ${words.slice(0, DEFAULT_THINKING_WORDS).join(' ')}`.trimEnd();
}

function readDirective(json: string): SimReply {
  try {
    return parseSimReply(JSON.parse(json) as unknown);
  } catch (error: unknown) {
    const reason = error instanceof SimReplyError || error instanceof SyntaxError ? error.message : 'unreadable';
    return { error: { status: 400, message: `Invalid <sim> directive: ${reason}` } };
  }
}

function defaultReply(request: NeutralRequest): SimReply {
  const guard = guardReply(request);
  if (guard) return guard;
  const results = trailingToolResults(request.messages);
  if (results.length > 0) {
    return { text: `Tool results received: ${results.map((result) => result.text).join('; ')}` };
  }
  const tool = forcedTool(request) ?? mentionedTool(request);
  if (tool) {
    return { toolCalls: [{ name: tool.name, arguments: synthesiseArguments(tool.parameters) }] };
  }
  const words = lastUserText(request.messages).split(/\s+/).filter((word) => word !== '');
  const echo = words.slice(0, DEFAULT_WORDS).join(' ');
  return { text: `Simulated reply from ${request.model}: ${echo}`.trimEnd() };
}

function forcedTool(request: NeutralRequest): NeutralTool | undefined {
  const choice = request.toolChoice;
  if (request.tools.length === 0 || choice === 'auto' || choice === 'none') return undefined;
  if (choice === 'required') return request.tools[0];
  return request.tools.find((tool) => tool.name === choice.name) ?? { name: choice.name };
}

/**
 * With tools offered and the choice left to the model, a plausible model calls the tool the user
 * asks for: the first tool a word of whose name (split at `_`, `-` and camel case, four letters or
 * more) appears in the last user message — "What's the weather in Oslo?" calls `get_weather`.
 */
function mentionedTool(request: NeutralRequest): NeutralTool | undefined {
  if (request.tools.length === 0 || request.toolChoice === 'none') return undefined;
  const text = lastUserText(request.messages).toLowerCase();
  if (text === '') return undefined;
  const words = new Set(text.split(/[^a-z0-9]+/).filter((word) => word.length >= 4));
  return request.tools.find((tool) => nameWords(tool.name).some((word) => words.has(word)));
}

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 4);
}

/** Tool results at the very end of the conversation, in order (parallel calls give several). */
export function trailingToolResults(messages: readonly NeutralMessage[]): NeutralToolResult[] {
  const results: NeutralToolResult[][] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const found = messages[i]?.toolResults ?? [];
    if (found.length === 0) break;
    results.unshift(found);
  }
  return results.flat();
}

function lastUserText(messages: readonly NeutralMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === 'user') return message.text;
  }
  return '';
}

/**
 * The text scripts and directives are matched against: the trailing tool results (with any text
 * sent beside them) when the conversation ends with results, otherwise the last user message.
 * Looking past trailing results would replay a tool-calling directive forever.
 */
export function latestClientTurnText(messages: readonly NeutralMessage[]): string {
  const parts: string[] = [];
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (!message?.toolResults?.length) break;
    const texts = [message.text, ...message.toolResults.map((result) => result.text)];
    parts.unshift(texts.filter((text) => text !== '').join('\n'));
  }
  return parts.length > 0 ? parts.join('\n') : lastUserText(messages);
}
