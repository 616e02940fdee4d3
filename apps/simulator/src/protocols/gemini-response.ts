import { randomId } from '../http-io';
import { toolCallTokens } from '../reply-limits';
import type { ReplyPlan, SimError, SimFinish, SimUsage } from '../reply-plan';
import { thinkingSignature } from '../signatures';
import type { StreamFrame } from '../sse-stream';
import { groupTokenCount, groupTokens } from '../stream-pieces';

export interface GeminiContext {
  responseId: string;
  modelVersion: string;
  /** `thinkingConfig.includeThoughts`: thinking is returned as `thought: true` parts. */
  includeThoughts: boolean;
}

export interface GeminiErrorBody {
  error: { code: number; message: string; status: string; details?: unknown[] };
}

type Part = Record<string, unknown>;

export function newGeminiContext(model: string, includeThoughts: boolean): GeminiContext {
  return { responseId: randomId(22), modelVersion: model, includeThoughts };
}

/** Tool calls finish with STOP on Gemini; the functionCall parts say what happened. */
const FINISH_REASONS: Record<SimFinish, string> = {
  stop: 'STOP',
  stop_sequence: 'STOP',
  tool_calls: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
};

interface Counts {
  prompt: number;
  candidates: number;
  thoughts: number;
  cached: number;
}

/** Proto3 JSON omits zero counts; the prompt and total are always present. */
function usageMetadata(counts: Counts): Record<string, number> {
  const usage: Record<string, number> = { promptTokenCount: counts.prompt };
  if (counts.candidates > 0) usage['candidatesTokenCount'] = counts.candidates;
  usage['totalTokenCount'] = counts.prompt + counts.candidates + counts.thoughts;
  if (counts.cached > 0) usage['cachedContentTokenCount'] = counts.cached;
  if (counts.thoughts > 0) usage['thoughtsTokenCount'] = counts.thoughts;
  return usage;
}

/** candidatesTokenCount excludes thoughts; promptTokenCount includes cached tokens. */
function finalCounts(usage: Required<SimUsage>): Counts {
  return { prompt: usage.input, candidates: Math.max(0, usage.output - usage.reasoning), thoughts: usage.reasoning, cached: usage.cached };
}

/**
 * Where the thought signature goes: on the first functionCall part (signing its name), else on
 * the first text part (signing the whole reply text). Only a reply with thinking carries one.
 */
function signature(plan: ReplyPlan): { onCall: boolean; value: string } | undefined {
  if (!plan.thinking) return undefined;
  const first = plan.toolCalls[0];
  if (!first && plan.text === '') return undefined;
  const signed = first ? first.name : plan.text;
  return { onCall: first !== undefined, value: plan.thinking.signature ?? thinkingSignature('gemini', signed) };
}

function callParts(plan: ReplyPlan): Part[] {
  const sign = signature(plan);
  // No `id`: the Gemini API leaves functionCall ids out.
  return plan.toolCalls.map((call, index) => {
    const part: Part = { functionCall: { name: call.name, args: call.arguments } };
    if (index === 0 && sign?.onCall) part['thoughtSignature'] = sign.value;
    return part;
  });
}

function textPart(text: string, plan: ReplyPlan, first: boolean): Part {
  const sign = signature(plan);
  return first && sign && !sign.onCall ? { text, thoughtSignature: sign.value } : { text };
}

function responseBody(ctx: GeminiContext, parts: Part[], usage: Counts, finishReason?: string): Record<string, unknown> {
  const content: Record<string, unknown> = { role: 'model' };
  if (parts.length > 0) content['parts'] = parts;
  const candidate: Record<string, unknown> = { content };
  if (finishReason !== undefined) candidate['finishReason'] = finishReason;
  candidate['index'] = 0;
  return { candidates: [candidate], usageMetadata: usageMetadata(usage), modelVersion: ctx.modelVersion, responseId: ctx.responseId };
}

export function renderGenerateContent(plan: ReplyPlan, ctx: GeminiContext): Record<string, unknown> {
  const parts: Part[] = [];
  if (ctx.includeThoughts && plan.thinking) parts.push({ text: plan.thinking.text, thought: true });
  if (plan.text !== '') parts.push(textPart(plan.text, plan, true));
  parts.push(...callParts(plan));
  return responseBody(ctx, parts, finalCounts(plan.usage), FINISH_REASONS[plan.finish]);
}

interface Piece {
  parts: Part[];
  tokens: number;
  thoughts: number;
  candidates: number;
}

/** Thought increments, text increments, then every functionCall part whole in one chunk. */
function streamPieces(plan: ReplyPlan, ctx: GeminiContext, chunkTokens: number): Piece[] {
  const pieces: Piece[] = [];
  if (ctx.includeThoughts && plan.thinking) {
    for (const group of groupTokens(plan.thinking.text, chunkTokens)) {
      const tokens = groupTokenCount(group);
      pieces.push({ parts: [{ text: group, thought: true }], tokens, thoughts: tokens, candidates: 0 });
    }
  }
  groupTokens(plan.text, chunkTokens).forEach((group, index) => {
    const tokens = groupTokenCount(group);
    pieces.push({ parts: [textPart(group, plan, index === 0)], tokens, thoughts: 0, candidates: tokens });
  });
  if (plan.toolCalls.length > 0) {
    const tokens = plan.toolCalls.reduce((sum, call) => sum + toolCallTokens(call), 0);
    pieces.push({ parts: callParts(plan), tokens, thoughts: 0, candidates: tokens });
  }
  if (pieces.length === 0) pieces.push({ parts: [{ text: '' }], tokens: 0, thoughts: 0, candidates: 0 });
  return pieces;
}

/**
 * Each chunk carries only its new parts and the usage so far; the last one carries the finish
 * reason and the final usage. Hidden thoughts (includeThoughts off) count from the first chunk.
 */
function streamChunks(plan: ReplyPlan, ctx: GeminiContext, chunkTokens: number): Array<{ body: Record<string, unknown>; tokens: number }> {
  const pieces = streamPieces(plan, ctx, chunkTokens);
  const final = finalCounts(plan.usage);
  let thoughts = ctx.includeThoughts ? 0 : final.thoughts;
  let candidates = 0;
  return pieces.map((piece, index) => {
    thoughts += piece.thoughts;
    candidates += piece.candidates;
    const last = index === pieces.length - 1;
    const usage = last ? final : { prompt: final.prompt, candidates, thoughts, cached: final.cached };
    return { body: responseBody(ctx, piece.parts, usage, last ? FINISH_REASONS[plan.finish] : undefined), tokens: piece.tokens };
  });
}

/** `?alt=sse`: `data: <json>` events separated by CRLF CRLF, no event names, no terminator. */
export function renderGeminiSse(plan: ReplyPlan, ctx: GeminiContext, chunkTokens: number): StreamFrame[] {
  const frames: StreamFrame[] = streamChunks(plan, ctx, chunkTokens).map((chunk) => ({
    data: `data: ${JSON.stringify(chunk.body)}\r\n\r\n`,
    tokens: chunk.tokens,
    phase: 'body',
  }));
  // Writes nothing; lets a stream fault set beyond the content still fire at the end.
  frames.push({ data: '', tokens: 0, phase: 'close' });
  return frames;
}

export const ARRAY_SEPARATOR = '\n,\r\n';

/** Without `alt`: one JSON array, written element by element, each element pretty-printed. */
export function renderGeminiJsonArray(plan: ReplyPlan, ctx: GeminiContext, chunkTokens: number): StreamFrame[] {
  const frames: StreamFrame[] = [{ data: '[', tokens: 0, phase: 'open' }];
  streamChunks(plan, ctx, chunkTokens).forEach((chunk, index) => {
    const separator = index === 0 ? '' : ARRAY_SEPARATOR;
    frames.push({ data: `${separator}${JSON.stringify(chunk.body, null, 2)}`, tokens: chunk.tokens, phase: 'body' });
  });
  frames.push({ data: '\n]', tokens: 0, phase: 'close' });
  return frames;
}

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiStatusName(code: number): string {
  return STATUS_NAMES[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

export function geminiError(code: number, message: string, status = geminiStatusName(code)): GeminiErrorBody {
  return { error: { code, message, status } };
}

const STREAM_FAILURE = geminiError(500, 'The simulator was scripted to fail this stream.');

export function geminiSseError(): string {
  return `data: ${JSON.stringify(STREAM_FAILURE)}\r\n\r\n`;
}

/** The error element closes the array, so the body stays one valid JSON array. */
export function geminiArrayError(framesWritten: number): string {
  const separator = framesWritten > 1 ? ARRAY_SEPARATOR : '';
  return `${separator}${JSON.stringify(STREAM_FAILURE, null, 2)}\n]`;
}

/** A `data:` event whose payload is not JSON (the `garbage` fault). */
export function geminiSseGarbage(text: string): string {
  return `data: ${text}\r\n\r\n`;
}

/** An array element that is not JSON (the `garbage` fault). */
export function geminiArrayGarbage(text: string): (framesWritten: number) => string {
  return (framesWritten) => `${framesWritten > 1 ? ARRAY_SEPARATOR : ''}${text}`;
}

/** A planned error in Google's envelope; a retry delay is also given as google.rpc.RetryInfo. */
export function renderGeminiPlannedError(error: SimError): { status: number; body: GeminiErrorBody; headers: Record<string, string> } {
  const body = geminiError(error.status, error.message, error.type ?? geminiStatusName(error.status));
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) {
    headers['retry-after'] = String(error.retryAfterSeconds);
    body.error.details = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${error.retryAfterSeconds}s` }];
  }
  return { status: error.status, body, headers };
}
