/**
 * Upstream `GenerateContentResponse` frames → the frames themselves, for a dialect-C client, and
 * what the gateway reads of them (docs/decisions/0017): the first chunk (`start`), usage, the
 * finish and errors. Nothing is sequenced into blocks: each chunk is parsed once and only the
 * length of its first candidate's output, its finishReason, a prompt's blockReason and its usage
 * are looked at. As in the full decoder, Gemini ends a stream by closing the connection and the
 * last usage is the total, so `finish` is emitted at `end()`, and output after the finish is not
 * counted (it is still forwarded: the client sees what Google sent).
 */
import type { FinishReason, StreamEvent, Usage } from '@rosetta/canonical';
import { isRecord, parseFrameData, recordField, stringField, upstreamStreamFailure, wireFrame, type JsonObject, type SseFrame, type StreamScanner } from '@rosetta/protocols/common';
import { candidateParts, firstCandidate } from './convert-gemini-response';
import { geminiStartEvent } from './gemini-response-fields';
import { upstreamErrorMessage } from './gemini-stream-decoder';
import { mapGeminiBlockReason, mapGeminiFinishReason } from './map-gemini-finish-reason';
import { mapGeminiUsage } from './map-gemini-usage';

export class GeminiStreamScanner implements StreamScanner {
  private started = false;
  private sawToolCall = false;
  private finishReason?: FinishReason;
  private usage?: Usage;
  private done = false;

  push(frame: SseFrame): StreamEvent[] {
    if (this.done || frame.data.trim() === '') return [];
    const chunk = parseFrameData(frame);
    if (!isRecord(chunk)) return [];
    const error = chunk['error'];
    if (error !== undefined && error !== null) return [this.fail(upstreamErrorMessage(error))];
    const events: StreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      events.push(geminiStartEvent(chunk));
    }
    this.usage = mapGeminiUsage(chunk['usageMetadata']) ?? this.usage;
    const { outputChars, content } = this.finishReason ? { outputChars: 0, content: false } : this.scanChunk(chunk);
    events.push(wireFrame(frame, chunk, outputChars, content));
    return events;
  }

  end(): StreamEvent[] {
    if (this.done) return [];
    if (!this.finishReason) return [this.fail('stream ended before a finishReason')];
    this.done = true;
    const finishReason = this.finishReason;
    return [this.usage ? { type: 'finish', finishReason, usage: this.usage } : { type: 'finish', finishReason }];
  }

  /** The output's length in the first candidate, and whether the frame carries any (a call, a signature and the finish count). */
  private scanChunk(chunk: JsonObject): { outputChars: number; content: boolean } {
    const candidate = firstCandidate(chunk);
    if (!candidate) {
      const blockReason = stringField(recordField(chunk, 'promptFeedback') ?? {}, 'blockReason');
      if (blockReason) this.finishReason = mapGeminiBlockReason(blockReason);
      return { outputChars: 0, content: blockReason !== undefined };
    }
    let outputChars = 0;
    let content = false;
    for (const part of candidateParts(candidate)) {
      if (!isRecord(part)) continue;
      const call = recordField(part, 'functionCall');
      if (call) {
        this.sawToolCall = content = true;
        // The full decoder forwards a call's arguments as their JSON text.
        outputChars += JSON.stringify(isRecord(call['args']) ? call['args'] : {}).length;
        continue;
      }
      const text = part['text'];
      if (typeof text === 'string') outputChars += text.length;
      if (typeof part['thoughtSignature'] === 'string') content = true;
    }
    const finishReason = stringField(candidate, 'finishReason');
    if (finishReason) {
      this.finishReason = mapGeminiFinishReason(finishReason, this.sawToolCall);
      content = true;
    }
    return { outputChars, content: content || outputChars > 0 };
  }

  private fail(message: string): StreamEvent {
    this.done = true;
    return upstreamStreamFailure(message);
  }
}
