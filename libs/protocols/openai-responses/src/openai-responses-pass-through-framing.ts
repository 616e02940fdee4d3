/**
 * A same-protocol stream to a Responses client (docs/decisions/0017). The upstream's events are
 * written as they came, with what the client must see differently put in:
 *
 * - the response object of `response.created` / `.in_progress` is the gateway's (its `resp_…` id,
 *   the served model, the client's own `store` and `previous_response_id` echoed), as the full
 *   encoder writes it;
 * - each output item gets the gateway's item id (`<prefix>_<response suffix>_<n>`, so an
 *   `item_reference` finds the stored response), in `output_item.added` / `.done`, which are
 *   serialised again, and in every event naming it by `item_id`, where only that field's text is
 *   replaced (an event laid out otherwise is serialised again);
 * - encrypted reasoning only when the client asked for it (the stored copy keeps it);
 * - the terminal event is the gateway's: the finished response is assembled from the items as
 *   they were done, priced, and stored before it goes out, as in the full path.
 *
 * Deltas and every other event go out byte for byte, with the upstream's sequence numbers; the
 * gateway's own events continue them.
 */
import type { FinishReason, GatewayError, StreamEvent, Usage, WireFrameEvent } from '@rosetta/canonical';
import { isRecord, numberField, recordField, stringField, type JsonObject } from '@rosetta/protocols/common';
import { errorCode, errorEventData } from './openai-responses-error';
import { nowSeconds, responseEnvelope, statusFor, type ResponseHead } from './responses-envelope';
import { itemId, type ItemPrefix } from './responses-ids';

export interface OpenAIResponsesPassThroughOptions {
  head: ResponseHead;
  /** Whether the client asked for `reasoning.encrypted_content` (the stored copy always has it). */
  includeEncrypted: boolean;
}

const PREFIXES: Readonly<Record<string, ItemPrefix>> = { message: 'msg', reasoning: 'rs', function_call: 'fc', custom_tool_call: 'ctc' };
const TERMINAL: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete']);

export class OpenAIResponsesPassThroughFraming {
  private nextSequence = 0;
  private ended = false;
  private usage?: Usage;
  private finished?: JsonObject;
  private openingJson?: string;
  /** The output as the client and the store see it, by output index. */
  private readonly output: JsonObject[] = [];
  /** Items added and not yet done, by output index, with what they said so far (for a stream cut short). */
  private readonly open = new Map<number, OpenItem>();
  /** The upstream's item ids → the `"item_id":…` text it wrote and the one the client sees. */
  private readonly itemIds = new Map<string, { upstream: string; ours: string; id: string }>();

  constructor(private readonly options: OpenAIResponsesPassThroughOptions) {}

  /** The finished response (with encrypted reasoning), once the stream has ended. */
  get final(): JsonObject | undefined {
    return this.finished;
  }

  encode(event: StreamEvent): string {
    if (this.ended) return '';
    switch (event.type) {
      case 'wire':
        return isRecord(event.data) ? this.forward(event, event.data) : '';
      case 'usage':
        this.usage = event.usage;
        return '';
      case 'finish':
        return this.finish(event.finishReason, event.usage ?? this.usage);
      case 'error':
        return this.fail(event.error);
      default:
        return '';
    }
  }

  private forward(event: WireFrameEvent, data: JsonObject): string {
    const sequence = numberField(data, 'sequence_number');
    const type = stringField(data, 'type') ?? '';
    const terminal = TERMINAL.has(type);
    // The terminal event is written from the finish, once the response is stored, in its place in the sequence.
    if (sequence !== undefined) this.nextSequence = terminal ? sequence : sequence + 1;
    else if (!terminal) this.nextSequence += 1;
    if (terminal) return '';
    if (isRecord(data['response'])) return this.opening(type, data);
    const item = recordField(data, 'item');
    const index = numberField(data, 'output_index');
    if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      // The scanner fails a stream whose items are not numbered in order; never forward one unrewritten.
      return item && index !== undefined && this.inOrder(index) ? this.item(type, data, item, index) : '';
    }
    if (index !== undefined) this.open.get(index)?.take(type, data);
    const upstreamId = stringField(data, 'item_id');
    const id = upstreamId === undefined ? undefined : this.itemIds.get(upstreamId);
    if (!id) return event.text;
    if (event.text.includes(id.upstream)) return event.text.replace(id.upstream, () => id.ours);
    return frame(type, { ...data, item_id: id.id });
  }

  /** An output index the client's response can hold: the next one, or one already there. */
  private inOrder(index: number): boolean {
    return Number.isSafeInteger(index) && index >= 0 && index <= this.output.length;
  }

  /** `response.created` / `.in_progress` with the gateway's response object, serialised once for both. */
  private opening(type: string, data: JsonObject): string {
    this.openingJson ??= JSON.stringify(responseEnvelope(this.options.head, 'in_progress', []));
    const { response: _, ...rest } = data;
    const fields = JSON.stringify(rest);
    return `event: ${type}\ndata: ${fields === '{}' ? '{' : `${fields.slice(0, -1)},`}"response":${this.openingJson}}\n\n`;
  }

  private item(type: string, data: JsonObject, item: JsonObject, index: number): string {
    const id = this.ourItemId(item, index);
    const ours = id === undefined ? item : { ...item, id };
    this.output[index] = ours;
    if (type === 'response.output_item.added') this.open.set(index, new OpenItem());
    else this.open.delete(index);
    return frame(type, { ...data, item: this.forClient(ours) });
  }

  /**
   * The gateway's id for output item `index`, remembered against the upstream's. Hosted tools'
   * items (a web search call, …) keep the upstream's id: the upstream wants it back as it issued it.
   */
  private ourItemId(item: JsonObject, index: number): string | undefined {
    const prefix = PREFIXES[stringField(item, 'type') ?? ''];
    const upstream = stringField(item, 'id');
    if (prefix === undefined) return upstream;
    const known = upstream === undefined ? undefined : this.itemIds.get(upstream);
    if (known) return known.id;
    const id = itemId(this.options.head.id, prefix, index);
    if (upstream !== undefined) this.itemIds.set(upstream, { upstream: `"item_id":${JSON.stringify(upstream)}`, ours: `"item_id":${JSON.stringify(id)}`, id });
    return id;
  }

  private finish(finishReason: FinishReason, usage: Usage | undefined): string {
    this.ended = true;
    const status = statusFor(finishReason);
    this.finished = responseEnvelope(this.options.head, status, this.output, { usage, finish: finishReason, completedAt: nowSeconds() });
    const name = status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed';
    return this.event(name, { response: this.clientView(this.finished) });
  }

  /** As the full encoder ends a failed stream: open items done as incomplete with what they said, the error, the failed response. */
  private fail(error: GatewayError): string {
    this.ended = true;
    let text = '';
    for (const [index, open] of [...this.open].sort(([a], [b]) => a - b)) {
      const item = open.closed(this.output[index] ?? {});
      this.output[index] = item;
      text += this.event('response.output_item.done', { output_index: index, item: this.forClient(item) });
    }
    this.open.clear();
    const code = errorCode(error);
    text += this.event('error', errorEventData(error));
    this.finished = responseEnvelope(this.options.head, 'failed', this.output, { usage: this.usage, error: { code, message: error.message } });
    return text + this.event('response.failed', { response: this.clientView(this.finished) });
  }

  /** An event of the gateway's own, continuing the upstream's sequence. */
  private event(type: string, data: JsonObject): string {
    return frame(type, { type, sequence_number: this.nextSequence++, ...data });
  }

  private forClient(item: JsonObject): JsonObject {
    if (this.options.includeEncrypted || item['encrypted_content'] === undefined) return item;
    const { encrypted_content: _, ...rest } = item;
    return rest;
  }

  private clientView(response: JsonObject): JsonObject {
    return { ...response, output: this.output.map((item) => this.forClient(item)) };
  }
}

/** What an item still open has said: its parts, its call's arguments or input, its summary. */
class OpenItem {
  private readonly parts: JsonObject[] = [];
  private readonly summary: string[] = [];
  private args?: string;
  private input?: string;

  take(type: string, e: JsonObject): void {
    const delta = stringField(e, 'delta') ?? '';
    const part = this.parts[numberField(e, 'content_index') ?? 0];
    switch (type) {
      case 'response.content_part.added':
      case 'response.content_part.done': {
        const index = numberField(e, 'content_index') ?? 0;
        const added = recordField(e, 'part');
        if (added && Number.isSafeInteger(index) && index >= 0 && index <= this.parts.length) this.parts[index] = { ...added };
        return;
      }
      case 'response.output_text.delta':
        if (part) part['text'] = `${stringField(part, 'text') ?? ''}${delta}`;
        return;
      case 'response.refusal.delta':
        if (part) part['refusal'] = `${stringField(part, 'refusal') ?? ''}${delta}`;
        return;
      case 'response.function_call_arguments.delta':
        this.args = `${this.args ?? ''}${delta}`;
        return;
      case 'response.custom_tool_call_input.delta':
        this.input = `${this.input ?? ''}${delta}`;
        return;
      case 'response.reasoning_summary_part.added':
        this.summary.push('');
        return;
      case 'response.reasoning_summary_text.delta':
        if (this.summary.length === 0) this.summary.push('');
        this.summary[this.summary.length - 1] += delta;
        return;
    }
  }

  /** The item as it was added, with what it said, marked incomplete. */
  closed(item: JsonObject): JsonObject {
    const type = stringField(item, 'type');
    const said: JsonObject = {};
    if (type === 'message') said['content'] = this.parts;
    if (type === 'reasoning' && this.summary.length > 0) said['summary'] = this.summary.map((text) => ({ type: 'summary_text', text }));
    if (type === 'function_call' && this.args !== undefined) said['arguments'] = this.args;
    if (type === 'custom_tool_call' && this.input !== undefined) said['input'] = this.input;
    return { ...item, ...said, status: 'incomplete' };
  }
}

function frame(type: string, data: JsonObject): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}
