/**
 * Test-only: rebuilds a message from dialect-B stream events the way the official SDK's
 * MessageStream does, but strictly: it throws where the SDK would fail or silently go wrong
 * (events before message_start or after message_stop, an event without an `event:` name, which the
 * SDK drops, block indexes out of order, a delta for a block that is not the open one).
 */
import type { SSEEvent } from './load-fixture';

type Block = Record<string, unknown> & { type: string };

export interface RebuiltMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: Block[];
  stop_reason: string | null;
  stop_sequence: string | null;
  usage: Record<string, unknown>;
}

export class StreamError extends Error {
  constructor(readonly body: unknown) {
    super(JSON.stringify(body));
  }
}

interface State {
  message?: RebuiltMessage;
  open?: number;
  json: Map<number, string>;
  stopped: boolean;
}

export function accumulateMessage(events: SSEEvent[]): RebuiltMessage {
  const state: State = { json: new Map(), stopped: false };
  for (const { event, data } of events) {
    if (event === undefined) throw new Error(`event without an event: line: ${JSON.stringify(data)}`);
    if (event === 'ping') continue;
    if (event === 'error') throw new StreamError(data);
    if (state.stopped) throw new Error(`${event} after message_stop`);
    apply(state, event, data as Record<string, unknown>);
  }
  if (!state.message || !state.stopped) throw new Error('stream ended before message_stop');
  return state.message;
}

function apply(state: State, event: string, data: Record<string, unknown>): void {
  if (event === 'message_start') {
    if (state.message) throw new Error('second message_start');
    state.message = structuredClone(data['message']) as RebuiltMessage;
    return;
  }
  const message = state.message;
  if (!message) throw new Error(`${event} before message_start`);
  const index = data['index'] as number;
  switch (event) {
    case 'content_block_start':
      if (state.open !== undefined) throw new Error(`block ${index} started while ${state.open} is open`);
      if (index !== message.content.length) throw new Error(`block index ${index}, expected ${message.content.length}`);
      message.content.push(structuredClone(data['content_block']) as Block);
      state.open = index;
      return;
    case 'content_block_delta':
      if (index !== state.open) throw new Error(`delta for block ${index} while ${String(state.open)} is open`);
      applyDelta(state, message.content[index] as Block, index, data['delta'] as Record<string, string>);
      return;
    case 'content_block_stop':
      if (index !== state.open) throw new Error(`stop for block ${index} while ${String(state.open)} is open`);
      finishBlock(state, message.content[index] as Block, index);
      return;
    case 'message_delta':
      applyMessageDelta(message, data);
      return;
    case 'message_stop':
      if (state.open !== undefined) throw new Error('message_stop with a block open');
      state.stopped = true;
      return;
    default:
      throw new Error(`unknown event ${event}`);
  }
}

function applyDelta(state: State, block: Block, index: number, delta: Record<string, string>): void {
  const expect = (type: string, key: string) => {
    if (block.type !== type) throw new Error(`${delta['type']} for a ${block.type} block`);
    return delta[key] ?? '';
  };
  switch (delta['type']) {
    case 'text_delta':
      block['text'] = `${block['text'] as string}${expect('text', 'text')}`;
      return;
    case 'thinking_delta':
      block['thinking'] = `${block['thinking'] as string}${expect('thinking', 'thinking')}`;
      return;
    case 'signature_delta':
      block['signature'] = expect('thinking', 'signature');
      return;
    case 'input_json_delta':
      state.json.set(index, `${state.json.get(index) ?? ''}${expect('tool_use', 'partial_json')}`);
      return;
    default:
      throw new Error(`unknown delta ${String(delta['type'])}`);
  }
}

function finishBlock(state: State, block: Block, index: number): void {
  if (block.type === 'tool_use') {
    const json = state.json.get(index) ?? '';
    block['input'] = json === '' ? {} : (JSON.parse(json) as unknown);
  }
  state.open = undefined;
}

/** Counts are cumulative: output always replaces, the others when present (the SDK's rule). */
function applyMessageDelta(message: RebuiltMessage, data: Record<string, unknown>): void {
  const delta = data['delta'] as Record<string, string | null>;
  const usage = data['usage'] as Record<string, unknown>;
  message.stop_reason = delta['stop_reason'] ?? null;
  message.stop_sequence = delta['stop_sequence'] ?? null;
  for (const [key, value] of Object.entries(usage)) {
    if (key === 'output_tokens' || (value !== null && value !== undefined)) message.usage[key] = value;
  }
}
