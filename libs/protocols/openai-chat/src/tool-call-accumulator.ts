/**
 * Streamed tool calls, keyed by the wire's `tool_calls[].index`. OpenAI sends id and name on a
 * call's first fragment and only argument pieces after; this turns that into one
 * `tool-call-start` per call followed by `tool-call-delta`s, tolerating servers that omit the id
 * (synthesised once per call) or send the name only on a later fragment (arguments wait for it).
 */
import type { StreamEvent } from '@rosetta/canonical';
import { synthesizeToolCallId, isNumber, isRecord, recordField, stringField } from '@rosetta/protocols/common';

interface ToolCallState {
  blockIndex: number;
  id: string;
  name?: string;
  started: boolean;
  /** Argument text received before the name, sent once the call can start. */
  pending: string;
}

export class ToolCallAccumulator {
  private readonly calls = new Map<number, ToolCallState>();

  /** `allocateBlockIndex` hands out the next block position, shared with text and thinking. */
  constructor(private readonly allocateBlockIndex: () => number) {}

  get count(): number {
    return this.calls.size;
  }

  /** Whether this fragment begins a call not seen before. */
  isNewCall(fragment: unknown): boolean {
    return !this.calls.has(wireIndex(fragment));
  }

  push(fragment: unknown): StreamEvent[] {
    if (!isRecord(fragment)) return [];
    const fn = recordField(fragment, 'function') ?? {};
    const state = this.stateFor(wireIndex(fragment), stringField(fragment, 'id'));
    const name = stringField(fn, 'name');
    if (!state.started && name) state.name = name;
    const args = stringField(fn, 'arguments') ?? '';
    if (!state.started && state.name === undefined) {
      state.pending += args;
      return [];
    }
    return [...this.start(state), ...delta(state.blockIndex, args)];
  }

  /** Ends every call, in block order, starting any that never got a name so the stream stays whole. */
  close(): { index: number; events: StreamEvent[] }[] {
    return [...this.calls.values()].map((state) => ({
      index: state.blockIndex,
      events: [...this.start(state), { type: 'tool-call-end', index: state.blockIndex }],
    }));
  }

  private stateFor(index: number, id: string | undefined): ToolCallState {
    const existing = this.calls.get(index);
    if (existing) return existing;
    const state: ToolCallState = {
      blockIndex: this.allocateBlockIndex(),
      id: id || synthesizeToolCallId(),
      started: false,
      pending: '',
    };
    this.calls.set(index, state);
    return state;
  }

  private start(state: ToolCallState): StreamEvent[] {
    if (state.started) return [];
    state.started = true;
    const pending = state.pending;
    state.pending = '';
    return [
      { type: 'tool-call-start', index: state.blockIndex, id: state.id, name: state.name ?? '' },
      ...delta(state.blockIndex, pending),
    ];
  }
}

/** A fragment without an index is taken as the first call: single-call servers sometimes omit it. */
function wireIndex(fragment: unknown): number {
  const index = isRecord(fragment) ? fragment['index'] : undefined;
  return isNumber(index) ? index : 0;
}

function delta(index: number, argumentsDelta: string): StreamEvent[] {
  return argumentsDelta === '' ? [] : [{ type: 'tool-call-delta', index, argumentsDelta }];
}
