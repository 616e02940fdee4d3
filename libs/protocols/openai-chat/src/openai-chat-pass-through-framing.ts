/**
 * A same-protocol stream to a dialect-A client (docs/decisions/0017): the upstream's chunks are
 * written as they came, with what the client sees differently from the upstream put in — the
 * gateway's id, `created` and the served model in each chunk's envelope, and `usage.cost` in the
 * usage chunk (dropped where the client did not ask for usage). The envelope is substituted in
 * the frame's text when the upstream serialised it the way OpenAI does (id, object, created, model
 * first); otherwise the chunk is serialised again. The gateway's own errors and the closing
 * `[DONE]` are written as the full encoder writes them.
 */
import type { StreamEvent, WireFrameEvent } from '@rosetta/canonical';
import { isRecord, type JsonObject, type StreamFraming } from '@rosetta/protocols/common';
import { openAIChatStreamErrorFrame, type OpenAIChatStreamEncoderOptions } from './openai-chat-stream-encoder';

const OBJECT = '"object":"chat.completion.chunk"';

export class OpenAIChatPassThroughFraming {
  private ended = false;
  private costUsd?: number;
  /** The envelope the client sees, as it opens each chunk's JSON. */
  private readonly envelope: string;
  /** The upstream's envelope of the last chunk (the same in every chunk of a stream). */
  private lastUpstream?: { id: string; created: number; model: string; text: string };

  constructor(private readonly options: OpenAIChatStreamEncoderOptions) {
    this.envelope = envelopeText(options.id, options.created, options.model);
  }

  encode(event: StreamEvent): string {
    if (this.ended) return '';
    switch (event.type) {
      case 'wire':
        return isRecord(event.data) ? this.forward(event, event.data) : '';
      case 'usage':
        this.costUsd = event.usage.costUsd;
        return '';
      case 'finish':
        this.ended = true;
        return 'data: [DONE]\n\n';
      case 'error':
        this.ended = true;
        return openAIChatStreamErrorFrame(event.error);
      default:
        return '';
    }
  }

  private forward(event: WireFrameEvent, chunk: JsonObject): string {
    const usage = chunk['usage'];
    if (isRecord(usage)) {
      const choices = chunk['choices'];
      if (!this.options.includeUsage && (!Array.isArray(choices) || choices.length === 0)) return '';
      const shown = this.options.includeUsage ? { ...usage, ...(this.costUsd === undefined ? {} : { cost: this.costUsd }) } : null;
      return this.serialised({ ...chunk, usage: shown });
    }
    const upstream = this.upstreamEnvelope(chunk);
    if (upstream !== undefined && event.text.startsWith(upstream)) return `data: ${this.envelope}${event.text.slice(upstream.length)}`;
    return this.serialised(chunk);
  }

  /** The frame's text up to the chunk's model, had the upstream serialised its envelope as OpenAI does; built once per stream. */
  private upstreamEnvelope({ id, created, model }: JsonObject): string | undefined {
    if (typeof id !== 'string' || typeof created !== 'number' || typeof model !== 'string') return undefined;
    const last = this.lastUpstream;
    if (last && last.id === id && last.created === created && last.model === model) return last.text;
    this.lastUpstream = { id, created, model, text: `data: ${envelopeText(id, created, model)}` };
    return this.lastUpstream.text;
  }

  private serialised(chunk: JsonObject): string {
    const { id, created, model } = this.options;
    return `data: ${JSON.stringify({ ...chunk, id, created, model })}\n\n`;
  }
}

/** The start of a chunk's JSON up to its model, as OpenAI serialises it. */
function envelopeText(id: string, created: number, model: string): string {
  return `{"id":${JSON.stringify(id)},${OBJECT},"created":${created},"model":${JSON.stringify(model)},`;
}

export function openAIChatPassThroughFraming(options: OpenAIChatStreamEncoderOptions, contentType: string): StreamFraming {
  const framing = new OpenAIChatPassThroughFraming(options);
  return { contentType, encode: (event) => framing.encode(event) };
}
