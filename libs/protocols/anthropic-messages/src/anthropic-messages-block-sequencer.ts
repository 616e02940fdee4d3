/**
 * Puts canonical blocks on the Anthropic wire one at a time. Anthropic never interleaves blocks,
 * and clients (the SDK's MessageStream, Claude Code) assume one open block, numbered 0, 1, 2… in
 * order of opening. Canonical streams from other upstreams may interleave (OpenAI's parallel tool
 * calls send fragments of several calls in turn), so a block that speaks while another is open
 * waits: its start and deltas are held, in order, and flushed when the open block ends.
 *
 * A block that was never started (refusal text, which has only deltas) has no end either: it ends
 * as soon as another block needs the wire.
 */
import type {
  InputJSONDelta,
  RedactedThinkingBlock,
  SignatureDelta,
  TextDelta,
  ThinkingDelta,
} from '@anthropic-ai/sdk/resources/messages';

export type WireBlockStart =
  | { type: 'text'; text: '' }
  | { type: 'thinking'; thinking: ''; signature: '' }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, never> }
  | RedactedThinkingBlock;

export type WireBlockDelta = TextDelta | ThinkingDelta | InputJSONDelta | SignatureDelta;

/** One SSE event: its name and its data, which repeats the name in `type`. */
export interface WireEvent {
  event: string;
  data: Record<string, unknown>;
}

interface Block {
  content: WireBlockStart;
  /** Opened by a start event, so it ends with an end event. */
  explicit: boolean;
  pending: WireBlockDelta[];
  ended: boolean;
  wireIndex?: number;
}

export class AnthropicMessagesBlockSequencer {
  private readonly blocks = new Map<number, Block>();
  private readonly waiting: Block[] = [];
  private open?: Block;
  private nextWireIndex = 0;
  private toolUseSent = false;

  /** Whether a tool_use block has gone out: the turn must then end with `tool_use`. */
  get sentToolUse(): boolean {
    return this.toolUseSent;
  }

  start(index: number, content: WireBlockStart): WireEvent[] {
    const out = this.endImplicitBlockFor(index);
    const block: Block = { content, explicit: true, pending: [], ended: false };
    this.blocks.set(index, block);
    return [...out, ...this.enqueue(block)];
  }

  /**
   * A block complete at once (a call signature's carrier, which has no canonical block of its
   * own): started, given its deltas and ended together, or held whole until the wire is free.
   * `index` is the canonical block it goes before.
   */
  whole(index: number, content: WireBlockStart, deltas: WireBlockDelta[]): WireEvent[] {
    const block: Block = { content, explicit: true, pending: [...deltas], ended: true };
    const out = [...this.endImplicitBlockFor(index), ...this.enqueue(block)];
    return block === this.open ? [...out, ...this.closeOpen()] : out;
  }

  /** `implicit`: the block a delta opens when no start came; without it such a delta is dropped. */
  delta(index: number, delta: WireBlockDelta, implicit?: WireBlockStart): WireEvent[] {
    const out = this.endImplicitBlockFor(index);
    let block = this.blocks.get(index);
    if (!block || block.ended) {
      if (!implicit) return out;
      block = { content: implicit, explicit: false, pending: [], ended: false };
      this.blocks.set(index, block);
      out.push(...this.enqueue(block));
    }
    return [...out, ...this.send(block, delta)];
  }

  /** `signature`: sent as a signature_delta just before a thinking block's stop. */
  end(index: number, signature?: string): WireEvent[] {
    const block = this.blocks.get(index);
    if (!block || block.ended) return [];
    const out = signature ? this.send(block, { type: 'signature_delta', signature }) : [];
    block.ended = true;
    return block === this.open ? [...out, ...this.closeOpen()] : out;
  }

  /** Ends every block: the open one, then each waiting one in order, none dropped. */
  finish(): WireEvent[] {
    for (const block of this.waiting) block.ended = true;
    if (!this.open) return this.drain();
    this.open.ended = true;
    return this.closeOpen();
  }

  private send(block: Block, delta: WireBlockDelta): WireEvent[] {
    if (block !== this.open) {
      block.pending.push(delta);
      return [];
    }
    return [blockEvent('content_block_delta', block, { delta })];
  }

  private enqueue(block: Block): WireEvent[] {
    if (this.open || this.waiting.length > 0) {
      this.waiting.push(block);
      return [];
    }
    return this.activate(block);
  }

  private activate(block: Block): WireEvent[] {
    this.open = block;
    block.wireIndex = this.nextWireIndex++;
    if (block.content.type === 'tool_use') this.toolUseSent = true;
    const pending = block.pending;
    block.pending = [];
    return [
      blockEvent('content_block_start', block, { content_block: block.content }),
      ...pending.map((delta) => blockEvent('content_block_delta', block, { delta })),
    ];
  }

  private closeOpen(): WireEvent[] {
    const block = this.open;
    this.open = undefined;
    return block ? [blockEvent('content_block_stop', block, {}), ...this.drain()] : [];
  }

  private drain(): WireEvent[] {
    const out: WireEvent[] = [];
    for (let next = this.waiting.shift(); next; next = this.open ? undefined : this.waiting.shift()) {
      out.push(...this.activate(next));
      if (next.ended) {
        this.open = undefined;
        out.push(blockEvent('content_block_stop', next, {}));
      }
    }
    return out;
  }

  private endImplicitBlockFor(index: number): WireEvent[] {
    const open = this.open;
    if (!open || open.explicit || this.blocks.get(index) === open) return [];
    open.ended = true;
    return this.closeOpen();
  }
}

function blockEvent(event: string, block: Block, fields: Record<string, unknown>): WireEvent {
  return { event, data: { type: event, index: block.wireIndex ?? 0, ...fields } };
}
