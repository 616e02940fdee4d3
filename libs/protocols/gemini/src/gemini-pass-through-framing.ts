/**
 * A same-protocol stream to a dialect-C client (docs/decisions/0017): the upstream's chunks are
 * written as they came, in the framing the client asked for (`?alt=sse` events or one JSON
 * array), with the gateway's `responseId` and the served model as `modelVersion`. Those two close
 * each chunk as Google serialises it; when the chunk's text ends with them exactly as its parsed
 * values serialise (in Google's layout, a space after each colon, or the compact one), that tail
 * is replaced in the same layout and the rest goes out byte for byte; otherwise the chunk is
 * serialised again with the two fields set. The gateway's own errors are written as the
 * full encoder writes them; the finish adds nothing (Gemini's last chunk carries it).
 */
import type { StreamEvent, WireFrameEvent } from '@rosetta/canonical';
import { isRecord, SSE_CONTENT_TYPE, type JsonObject, type StreamFraming } from '@rosetta/protocols/common';
import { geminiStreamErrorChunk, type GeminiStreamEncoderOptions } from './gemini-stream-encoder';
import { geminiSseChunk, GeminiJsonArrayWriter } from './gemini-stream-framing';

export class GeminiPassThroughFraming {
  private ended = false;
  /** The envelope the client sees, as it closes each chunk's JSON, in each layout. */
  private readonly envelopes: Envelopes;
  /** The upstream's envelope of the last chunk (the same in every chunk of a stream). */
  private lastUpstream?: { model: string; id: string; texts: Envelopes };

  constructor(
    private readonly options: GeminiStreamEncoderOptions,
    /** Writes one chunk's JSON text in the client's framing. */
    private readonly write: (json: string, error: boolean) => string,
  ) {
    this.envelopes = envelopeTexts(options.model, options.id);
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
    const upstream = this.upstreamEnvelopes(chunk);
    // A payload the upstream spread over several `data:` lines is serialised again: it must go out as one.
    if (upstream !== undefined && !event.payload.includes('\n')) {
      for (const layout of LAYOUTS) {
        const tail = upstream[layout];
        if (event.payload.endsWith(tail)) return `${event.payload.slice(0, -tail.length)}${this.envelopes[layout]}`;
      }
    }
    return JSON.stringify({ ...chunk, modelVersion: this.options.model, responseId: this.options.id });
  }

  /** The chunk's closing text from its model on, had the upstream serialised it as Google does; built once per stream. */
  private upstreamEnvelopes({ modelVersion, responseId }: JsonObject): Envelopes | undefined {
    if (typeof modelVersion !== 'string' || typeof responseId !== 'string') return undefined;
    const last = this.lastUpstream;
    if (last && last.model === modelVersion && last.id === responseId) return last.texts;
    this.lastUpstream = { model: modelVersion, id: responseId, texts: envelopeTexts(modelVersion, responseId) };
    return this.lastUpstream.texts;
  }
}

/** Google's API writes `"key": value` (a space after the colon only); JSON.stringify and the simulator write none. */
const LAYOUTS = ['google', 'compact'] as const;
type Envelopes = Record<(typeof LAYOUTS)[number], string>;

/** The end of a chunk's JSON from its model on, in each layout. */
function envelopeTexts(model: string, id: string): Envelopes {
  return {
    google: `"modelVersion": ${JSON.stringify(model)},"responseId": ${JSON.stringify(id)}}`,
    compact: `"modelVersion":${JSON.stringify(model)},"responseId":${JSON.stringify(id)}}`,
  };
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
