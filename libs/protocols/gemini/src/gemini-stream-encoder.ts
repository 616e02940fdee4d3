/**
 * Canonical stream events → `GenerateContentResponse` chunk objects for a dialect-C client;
 * framing (SSE or a JSON array) is gemini-stream-framing's job.
 *
 * - Each text or thought delta is one chunk, as Google streams them.
 * - A tool call is held until its end and sent whole, because Gemini clients take `args` as an
 *   object, never as fragments.
 * - A signature on a text or thinking block's end goes out as its own empty-text part carrying
 *   `thoughtSignature`: the form Google itself uses to end a signed streamed block, so a client
 *   that records the chunks as history sends it back as Gemini expects. (Attaching it to the next
 *   chunk instead would leave it nowhere when none follows.)
 * - The finish chunk carries `finishReason` and usage with an empty text part: the SDK's chat
 *   drops a streamed reply from its history if any chunk has no parts.
 * - An error is one `{error: {code, message, status}}` chunk, and nothing follows it.
 */
import type { FinishReason, GatewayError, ProviderSignature, StreamEvent, Usage } from '@rosetta/canonical';
import type { Part } from '@google/genai';
import { signed, toGeminiArgs } from './convert-to-gemini-response';
import { geminiRpcStatus } from './gemini-error';
import { toGeminiFinishReason } from './map-gemini-finish-reason';
import { toGeminiUsage } from './map-gemini-usage';

export interface GeminiStreamEncoderOptions {
  /** The response id the client sees (`responseId`). */
  id: string;
  /** The public model id the client sees (`modelVersion`). */
  model: string;
}

interface PendingToolCall {
  id: string;
  name: string;
  signature?: ProviderSignature;
  arguments: string;
}

export class GeminiStreamEncoder {
  private ended = false;
  private usage?: Usage;
  /** Tool calls being received, by block index. */
  private readonly toolCalls = new Map<number, PendingToolCall>();

  constructor(private readonly options: GeminiStreamEncoderOptions) {}

  encode(event: StreamEvent): Record<string, unknown>[] {
    if (this.ended) return [];
    switch (event.type) {
      case 'text-delta':
      case 'refusal-delta':
        return [this.chunk([{ text: event.text }])];
      case 'thinking-delta':
        return [this.chunk([{ text: event.text, thought: true }])];
      case 'text-end':
        return event.signature ? [this.chunk([signed({ text: '' }, event.signature)])] : [];
      case 'thinking-end':
        return event.signature ? [this.chunk([signed({ text: '', thought: true }, event.signature)])] : [];
      case 'tool-call-start': {
        const call: PendingToolCall = { id: event.id, name: event.name, arguments: '' };
        if (event.signature) call.signature = event.signature;
        this.toolCalls.set(event.index, call);
        return [];
      }
      case 'tool-call-delta': {
        const call = this.toolCalls.get(event.index);
        if (call) call.arguments += event.argumentsDelta;
        return [];
      }
      case 'tool-call-end':
        return this.flushToolCalls([event.index]);
      case 'usage':
        this.usage = event.usage;
        return [];
      case 'finish':
        return [this.finish(event.finishReason, event.usage ?? this.usage)];
      case 'error':
        this.ended = true;
        return [geminiStreamErrorChunk(event.error)];
      default:
        // `start` carries nothing the envelope lacks; redacted thinking has no Gemini form.
        return [];
    }
  }

  private flushToolCalls(indexes: number[]): Record<string, unknown>[] {
    const parts = this.takeToolCallParts(indexes);
    return parts.length > 0 ? [this.chunk(parts)] : [];
  }

  private takeToolCallParts(indexes: number[]): Part[] {
    return indexes.flatMap((index) => {
      const call = this.toolCalls.get(index);
      if (!call) return [];
      this.toolCalls.delete(index);
      return [signed({ functionCall: { id: call.id, name: call.name, args: toGeminiArgs(call.arguments) } }, call.signature)];
    });
  }

  /** Calls never ended (a cut-short upstream) still go out, in block order, before the finish. */
  private finish(reason: FinishReason, usage: Usage | undefined): Record<string, unknown> {
    this.ended = true;
    const unfinished = this.takeToolCallParts([...this.toolCalls.keys()].sort((a, b) => a - b));
    const parts = unfinished.length > 0 ? unfinished : [{ text: '' }];
    const candidate = { content: { role: 'model', parts }, finishReason: toGeminiFinishReason(reason), index: 0 };
    const chunk: Record<string, unknown> = { candidates: [candidate] };
    if (usage) chunk['usageMetadata'] = toGeminiUsage(usage);
    return { ...chunk, ...this.envelope() };
  }

  private chunk(parts: Part[]): Record<string, unknown> {
    return { candidates: [{ content: { role: 'model', parts }, index: 0 }], ...this.envelope() };
  }

  private envelope(): { modelVersion: string; responseId: string } {
    return { modelVersion: this.options.model, responseId: this.options.id };
  }
}

/** The gateway's in-stream error, as Google writes one. */
export function geminiStreamErrorChunk(error: GatewayError): Record<string, unknown> {
  return { error: { code: error.status, message: error.message, status: geminiRpcStatus(error.status) } };
}
