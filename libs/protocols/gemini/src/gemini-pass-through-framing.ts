/**
 * A same-protocol stream to a dialect-C client (docs/decisions/0017): the upstream's chunks are
 * written as they came, in the framing the client asked for (`?alt=sse` events or one JSON
 * array), with the gateway's `responseId` and the served model as `modelVersion`. Those two close
 * each chunk as Google serialises it; when the chunk's text ends with them exactly as its parsed
 * values serialise, that tail is replaced and the rest goes out byte for byte; otherwise the
 * chunk is serialised again with the two fields set. The gateway's own errors are written as the
 * full encoder writes them; the finish adds nothing (Gemini's last chunk carries it).
 */
import type { StreamEvent, WireFrameEvent } from '@rosetta/canonical';
import { isRecord, SSE_CONTENT_TYPE, type JsonObject, type StreamFraming } from '@rosetta/protocols/common';
import { geminiStreamErrorChunk, type GeminiStreamEncoderOptions } from './gemini-stream-encoder';
import { geminiSseChunk, GeminiJsonArrayWriter } from './gemini-stream-framing';

export class GeminiPassThroughFraming {
  private ended = false;
  /** The envelope the client sees, as it closes each chunk's JSON. */
  private readonly envelope: string;
  /** The upstream's envelope of the last chunk (the same in every chunk of a stream). */
  private lastUpstream?: { model: string; id: string; text: string };

  constructor(
    private readonly options: GeminiStreamEncoderOptions,
    /** Writes one chunk's JSON text in the client's framing. */
    private readonly write: (json: string, error: boolean) => string,
  ) {
    this.envelope = envelopeText(options.model, options.id);
  }

  encode(event: StreamEvent): string {
    if (this.ended) return '';
    switch (event.type) {
      case 'wire':
        return isRecord(event.data) ? this.write(this.payload(event, event.data), false) : '';
      case 'finish':
        this.ended = true;
        return '';
      case 'error':
        this.ended = true;
        return this.write(JSON.stringify(geminiStreamErrorChunk(event.error)), true);
      default:
        return '';
    }
  }

  private payload(event: WireFrameEvent, chunk: JsonObject): string {
    const upstream = this.upstreamEnvelope(chunk);
    // A payload the upstream spread over several `data:` lines is serialised again: it must go out as one.
    if (upstream !== undefined && event.payload.endsWith(upstream) && !event.payload.includes('\n')) return `${event.payload.slice(0, -upstream.length)}${this.envelope}`;
    return JSON.stringify({ ...chunk, modelVersion: this.options.model, responseId: this.options.id });
  }

  /** The chunk's closing text from its model on, had the upstream serialised it as Google does; built once per stream. */
  private upstreamEnvelope({ modelVersion, responseId }: JsonObject): string | undefined {
    if (typeof modelVersion !== 'string' || typeof responseId !== 'string') return undefined;
    const last = this.lastUpstream;
    if (last && last.model === modelVersion && last.id === responseId) return last.text;
    this.lastUpstream = { model: modelVersion, id: responseId, text: envelopeText(modelVersion, responseId) };
    return this.lastUpstream.text;
  }
}

/** The end of a chunk's JSON from its model on, as Google serialises it. */
function envelopeText(model: string, id: string): string {
  return `"modelVersion":${JSON.stringify(model)},"responseId":${JSON.stringify(id)}}`;
}

export function geminiPassThroughFraming(options: GeminiStreamEncoderOptions, sse: boolean): StreamFraming {
  if (sse) {
    const framing = new GeminiPassThroughFraming(options, geminiSseChunk);
    return { contentType: SSE_CONTENT_TYPE, encode: (event) => framing.encode(event) };
  }
  const writer = new GeminiJsonArrayWriter();
  const framing = new GeminiPassThroughFraming(options, (json) => writer.itemText(json));
  return { contentType: 'application/json; charset=utf-8', open: writer.open(), encode: (event) => framing.encode(event), close: () => writer.close() };
}
