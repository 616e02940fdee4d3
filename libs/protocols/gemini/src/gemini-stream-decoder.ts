/**
 * Upstream `GenerateContentResponse` chunks → canonical stream events, one chunk at a time.
 *
 * Each chunk holds only new parts. Text pieces extend the open text block and thought pieces the
 * open thinking block; a part of another kind closes it. A function call arrives whole, so it
 * is a complete start/delta/end group. A `thoughtSignature` belongs to the block its part is in
 * (given on the block's end event) or to its function call; a second signature starts a new
 * block, as one block carries one. Gemini ends a stream by closing the connection, and usage may
 * come on any chunk (the last is the total), so `finish` is emitted at `end()`.
 */
import type { FinishReason, ProviderSignature, StreamEvent, Usage } from '@rosetta/canonical';
import { isRecord, recordField, stringField, synthesizeToolCallId, upstreamStreamFailure, type JsonObject } from '@rosetta/protocols/common';
import { candidateParts, firstCandidate } from './convert-gemini-response';
import { geminiStartEvent } from './gemini-response-fields';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { mapGeminiUsage } from './map-gemini-usage';

type BlockKind = 'text' | 'thinking';

interface OpenBlock {
  kind: BlockKind;
  index: number;
  signature?: ProviderSignature;
}

export class GeminiStreamDecoder {
  private started = false;
  private nextBlockIndex = 0;
  private openBlock?: OpenBlock;
  private sawToolCalls = false;
  private finishReason?: FinishReason;
  private usage?: Usage;
  /** Set once `finish` or `error` has been emitted: the stream is over for the consumer. */
  private done = false;

  push(chunk: unknown): StreamEvent[] {
    if (this.done || !isRecord(chunk)) return [];
    const error = chunk['error'];
    if (error !== undefined && error !== null) return [this.fail(upstreamErrorMessage(error))];
    const events: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push(geminiStartEvent(chunk));
    }
    this.usage = mapGeminiUsage(chunk['usageMetadata']) ?? this.usage;
    // Anything after the finish (a late usage chunk aside) is not part of the reply.
    if (this.finishReason) return events;
    const candidate = firstCandidate(chunk);
    if (candidate) {
      events.push(...this.pushCandidate(candidate));
      return events;
    }
    const blockReason = stringField(recordField(chunk, 'promptFeedback') ?? {}, 'blockReason');
    if (blockReason) {
      events.push(...this.closeOpenBlock());
      this.finishReason = mapGeminiBlockReason(blockReason);
    }
    return events;
  }

  end(): StreamEvent[] {
    if (this.done) return [];
    if (!this.finishReason) return [this.fail('stream ended before a finishReason')];
    this.done = true;
    const events = this.closeOpenBlock();
    const finishReason = this.finishReason;
    events.push(this.usage ? { type: 'finish', finishReason, usage: this.usage } : { type: 'finish', finishReason });
    return events;
  }

  private pushCandidate(candidate: JsonObject): StreamEvent[] {
    const events = candidateParts(candidate).flatMap((part) => (isRecord(part) ? this.pushPart(part) : []));
    const finishReason = stringField(candidate, 'finishReason');
    if (finishReason) {
      events.push(...this.closeOpenBlock());
      this.finishReason = mapGeminiFinishReason(finishReason, this.sawToolCalls);
    }
    return events;
  }

  private pushPart(part: JsonObject): StreamEvent[] {
    const signatureValue = stringField(part, 'thoughtSignature');
    const signature: ProviderSignature | undefined = signatureValue ? { protocol: 'gemini', value: signatureValue } : undefined;
    const call = recordField(part, 'functionCall');
    if (call) return [...this.closeOpenBlock(), ...this.functionCall(call, signature)];
    if (part['text'] === undefined && signature === undefined) {
      // Inline media, code execution…: no canonical block, but it ends the one that was open.
      return this.closeOpenBlock();
    }
    const text = stringField(part, 'text') ?? '';
    if (text === '' && !signature) return [];
    return this.appendToBlock(part['thought'] === true ? 'thinking' : 'text', text, signature);
  }

  private functionCall(call: JsonObject, signature: ProviderSignature | undefined): StreamEvent[] {
    this.sawToolCalls = true;
    const index = this.nextBlockIndex++;
    const id = stringField(call, 'id') || synthesizeToolCallId();
    const name = stringField(call, 'name') ?? '';
    const start: StreamEvent = signature
      ? { type: 'tool-call-start', index, id, name, signature }
      : { type: 'tool-call-start', index, id, name };
    const args = isRecord(call['args']) ? call['args'] : {};
    return [start, { type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(args) }, { type: 'tool-call-end', index }];
  }

  private appendToBlock(kind: BlockKind, text: string, signature: ProviderSignature | undefined): StreamEvent[] {
    const events: StreamEvent[] = [];
    let block = this.openBlock;
    if (block?.kind !== kind || (signature && block.signature)) {
      events.push(...this.closeOpenBlock());
      block = { kind, index: this.nextBlockIndex++ };
      this.openBlock = block;
      events.push({ type: kind === 'text' ? 'text-start' : 'thinking-start', index: block.index });
    }
    if (text !== '') {
      events.push(kind === 'text' ? { type: 'text-delta', index: block.index, text } : { type: 'thinking-delta', index: block.index, text });
    }
    if (signature) block.signature = signature;
    return events;
  }

  private closeOpenBlock(): StreamEvent[] {
    const block = this.openBlock;
    if (!block) return [];
    this.openBlock = undefined;
    const type = block.kind === 'text' ? 'text-end' : 'thinking-end';
    return [block.signature ? { type, index: block.index, signature: block.signature } : { type, index: block.index }];
  }

  private fail(message: string): StreamEvent {
    this.done = true;
    return upstreamStreamFailure(message);
  }
}

/** Google's in-stream error: `{error: {code, message, status}}`. */
export function upstreamErrorMessage(error: unknown): string {
  if (typeof error === 'string' && error !== '') return error;
  const message = isRecord(error) ? stringField(error, 'message') : undefined;
  return message || 'unknown error';
}
