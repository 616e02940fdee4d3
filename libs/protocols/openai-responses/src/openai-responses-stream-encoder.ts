/**
 * Canonical stream events → the Responses event stream: `event: <type>` + `data:` frames, each
 * with a rising `sequence_number`, no `[DONE]`. `response.created` and `response.in_progress`
 * open it; every item goes `output_item.added` → its part and delta events → `output_item.done`;
 * `response.completed` (or `.incomplete`, or `error` + `.failed`) closes it with the whole output.
 * The finished response object stays available (`final`), for storage.
 */
import type { FinishReason, GatewayError, ProviderSignature, StreamEvent, Usage } from '@rosetta/canonical';
import type { JsonObject } from '@rosetta/protocols/common';
import { callSignatureItem, messageItem, outputText, reasoningItem, toolCallItem } from './convert-to-openai-responses-output';
import { nowSeconds, responseEnvelope, statusFor, type ResponseHead } from './responses-envelope';
import { errorCode, errorEventData } from './openai-responses-error';
import { itemId } from './responses-ids';
import { customInput, type ToolNames } from './tool-names';

export interface OpenAIResponsesStreamEncoderOptions {
  head: ResponseHead;
  tools: ToolNames;
  /** Whether the client asked for `reasoning.encrypted_content` (the stored copy always has it). */
  includeEncrypted: boolean;
}

type Part = { type: 'output_text' | 'refusal'; index: number; text: string };
type Open =
  | { kind: 'message'; index: number; id: string; parts: JsonObject[]; part?: Part }
  | { kind: 'reasoning'; index: number; id: string; summary?: string }
  | { kind: 'tool'; index: number; id: string; callId: string; name: string; custom: boolean; args: string };

export class OpenAIResponsesStreamEncoder {
  private seq = 0;
  private readonly output: JsonObject[] = [];
  private open?: Open;
  private usage?: Usage;
  private finished?: JsonObject;

  constructor(private readonly options: OpenAIResponsesStreamEncoderOptions) {}

  /** The finished response (with encrypted reasoning), once the stream has ended. */
  get final(): JsonObject | undefined {
    return this.finished;
  }

  encode(event: StreamEvent): string {
    const frames: string[] = [];
    const emit = (type: string, data: JsonObject): void => {
      frames.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.seq++, ...data })}\n\n`);
    };
    this.apply(event, emit);
    return frames.join('');
  }

  private apply(event: StreamEvent, emit: Emit): void {
    switch (event.type) {
      case 'start': {
        const response = this.envelope('in_progress');
        emit('response.created', { response });
        emit('response.in_progress', { response });
        return;
      }
      case 'text-start':
        return this.startPart('output_text', emit);
      case 'text-delta':
        return this.delta('output_text', event.text, emit);
      case 'text-end':
        return this.endPart(emit);
      case 'refusal-delta':
        if (this.open?.kind !== 'message' || this.open.part?.type !== 'refusal') this.startPart('refusal', emit);
        return this.delta('refusal', event.text, emit);
      case 'thinking-start':
        return this.startReasoning(emit);
      case 'thinking-delta':
        return this.reasoningDelta(event.text, emit);
      case 'thinking-end':
        return this.endReasoning(event.signature, emit);
      case 'redacted-thinking':
        this.close(emit);
        return this.whole(reasoningItem({ type: 'redacted_thinking', data: event.data, protocol: event.protocol }, this.nextId('rs')), emit);
      case 'tool-call-start':
        if (event.signature) {
          this.close(emit);
          this.whole(callSignatureItem(event.signature, this.nextId('rs')), emit);
        }
        return this.startTool(event.id, event.name, emit);
      case 'tool-call-delta':
        return this.toolDelta(event.argumentsDelta, emit);
      case 'tool-call-end':
        return this.close(emit);
      case 'usage':
        this.usage = event.usage;
        return;
      case 'finish':
        return this.finish(event.finishReason, event.usage ?? this.usage, emit);
      case 'error':
        return this.fail(event.error, emit);
    }
  }

  private startPart(type: Part['type'], emit: Emit): void {
    if (this.open?.kind !== 'message') {
      this.close(emit);
      const index = this.output.length;
      const id = this.nextId('msg');
      this.open = { kind: 'message', index, id, parts: [] };
      this.output.push(messageItem(id, [], 'in_progress'));
      emit('response.output_item.added', { output_index: index, item: messageItem(id, [], 'in_progress') });
    }
    this.endPart(emit);
    const message = this.open as Extract<Open, { kind: 'message' }>;
    message.part = { type, index: message.parts.length, text: '' };
    emit('response.content_part.added', { item_id: message.id, output_index: message.index, content_index: message.part.index, part: partOf(message.part) });
  }

  private delta(type: Part['type'], text: string, emit: Emit): void {
    if (this.open?.kind !== 'message' || !this.open.part) this.startPart(type, emit);
    const message = this.open as Extract<Open, { kind: 'message' }>;
    const part = message.part!;
    part.text += text;
    const name = part.type === 'refusal' ? 'response.refusal.delta' : 'response.output_text.delta';
    emit(name, { item_id: message.id, output_index: message.index, content_index: part.index, delta: text, ...(part.type === 'output_text' ? { logprobs: [] } : {}) });
  }

  private endPart(emit: Emit): void {
    if (this.open?.kind !== 'message' || !this.open.part) return;
    const { id, index } = this.open;
    const part = this.open.part;
    const where = { item_id: id, output_index: index, content_index: part.index };
    if (part.type === 'refusal') emit('response.refusal.done', { ...where, refusal: part.text });
    else emit('response.output_text.done', { ...where, text: part.text, logprobs: [] });
    emit('response.content_part.done', { ...where, part: partOf(part) });
    this.open.parts.push(partOf(part));
    this.open.part = undefined;
  }

  /** Under the gateway's own id, as in a whole answer (see reasoningItem). */
  private startReasoning(emit: Emit): void {
    this.close(emit);
    const index = this.output.length;
    const id = this.nextId('rs');
    this.open = { kind: 'reasoning', index, id };
    const item = { id, type: 'reasoning', summary: [] };
    this.output.push(item);
    emit('response.output_item.added', { output_index: index, item });
  }

  private reasoningDelta(text: string, emit: Emit): void {
    if (this.open?.kind !== 'reasoning') this.startReasoning(emit);
    const open = this.open as Extract<Open, { kind: 'reasoning' }>;
    const where = { item_id: open.id, output_index: open.index, summary_index: 0 };
    if (open.summary === undefined) {
      open.summary = '';
      emit('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
    }
    open.summary += text;
    emit('response.reasoning_summary_text.delta', { ...where, delta: text });
  }

  private endReasoning(signature: ProviderSignature | undefined, emit: Emit): void {
    if (this.open?.kind !== 'reasoning') return;
    const open = this.open;
    this.open = undefined;
    if (open.summary !== undefined) {
      const where = { item_id: open.id, output_index: open.index, summary_index: 0 };
      emit('response.reasoning_summary_text.done', { ...where, text: open.summary });
      emit('response.reasoning_summary_part.done', { ...where, part: { type: 'summary_text', text: open.summary } });
    }
    const item = reasoningItem({ type: 'thinking', text: open.summary ?? '', signature }, open.id);
    this.output[open.index] = item;
    emit('response.output_item.done', { output_index: open.index, item: this.forClient(item) });
  }

  private startTool(callId: string, name: string, emit: Emit): void {
    this.close(emit);
    const index = this.output.length;
    const context = { responseId: this.options.head.id, tools: this.options.tools };
    const item = toolCallItem({ id: callId, name, arguments: '' }, context, index, 'in_progress');
    const custom = item['type'] === 'custom_tool_call';
    this.open = { kind: 'tool', index, id: item['id'] as string, callId, name, custom, args: '' };
    this.output.push(item);
    emit('response.output_item.added', { output_index: index, item });
  }

  private toolDelta(delta: string, emit: Emit): void {
    if (this.open?.kind !== 'tool') return;
    this.open.args += delta;
    // A custom tool's input is the `input` string inside the canonical JSON: sent whole at the end.
    if (!this.open.custom) emit('response.function_call_arguments.delta', { item_id: this.open.id, output_index: this.open.index, delta });
  }

  private endTool(open: Extract<Open, { kind: 'tool' }>, emit: Emit, status: string): void {
    const where = { item_id: open.id, output_index: open.index };
    const context = { responseId: this.options.head.id, tools: this.options.tools };
    if (open.custom) {
      const input = customInput(open.args);
      emit('response.custom_tool_call_input.delta', { ...where, delta: input });
      emit('response.custom_tool_call_input.done', { ...where, input });
    } else {
      emit('response.function_call_arguments.done', { ...where, name: this.options.tools.wire(open.name).name, arguments: open.args });
    }
    const item = toolCallItem({ id: open.callId, name: open.name, arguments: open.args }, context, open.index, status);
    this.output[open.index] = item;
    emit('response.output_item.done', { output_index: open.index, item });
  }

  /** Closes whatever item is open (`status` for items cut short by an error). */
  private close(emit: Emit, status = 'completed'): void {
    const open = this.open;
    if (!open) return;
    if (open.kind === 'reasoning') return this.endReasoning(undefined, emit);
    this.open = undefined;
    if (open.kind === 'tool') return this.endTool(open, emit, status);
    this.open = open;
    this.endPart(emit);
    this.open = undefined;
    const item = messageItem(open.id, open.parts, status);
    this.output[open.index] = item;
    emit('response.output_item.done', { output_index: open.index, item });
  }

  private whole(item: JsonObject, emit: Emit): void {
    const index = this.output.length;
    this.output.push(item);
    emit('response.output_item.added', { output_index: index, item: this.forClient(item) });
    emit('response.output_item.done', { output_index: index, item: this.forClient(item) });
  }

  private finish(finishReason: FinishReason, usage: Usage | undefined, emit: Emit): void {
    this.close(emit);
    const status = statusFor(finishReason);
    this.finished = responseEnvelope(this.options.head, status, this.output, { usage, finish: finishReason, completedAt: nowSeconds() });
    const name = status === 'incomplete' ? 'response.incomplete' : status === 'failed' ? 'response.failed' : 'response.completed';
    emit(name, { response: this.clientView(this.finished) });
  }

  private fail(error: GatewayError, emit: Emit): void {
    this.close(emit, 'incomplete');
    const code = errorCode(error);
    emit('error', errorEventData(error));
    this.finished = responseEnvelope(this.options.head, 'failed', this.output, { usage: this.usage, error: { code, message: error.message } });
    emit('response.failed', { response: this.clientView(this.finished) });
  }

  private envelope(status: 'in_progress'): JsonObject {
    return responseEnvelope(this.options.head, status, []);
  }

  private nextId(prefix: 'msg' | 'rs'): string {
    return itemId(this.options.head.id, prefix, this.output.length);
  }

  private forClient(item: JsonObject): JsonObject {
    if (this.options.includeEncrypted || item['encrypted_content'] === undefined) return item;
    const { encrypted_content: _, ...rest } = item;
    return rest;
  }

  private clientView(response: JsonObject): JsonObject {
    return { ...response, output: (response['output'] as JsonObject[]).map((item) => this.forClient(item)) };
  }
}

type Emit = (type: string, data: JsonObject) => void;

function partOf(part: Part): JsonObject {
  return part.type === 'refusal' ? { type: 'refusal', refusal: part.text } : outputText(part.text);
}
