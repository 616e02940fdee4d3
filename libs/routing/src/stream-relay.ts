import type { StreamEvent } from '@rosetta/canonical';
import { upstreamUnreachable, type AbortWatch } from '@rosetta/providers';
import { toGatewayError } from './gateway-errors';

export interface StreamReport {
  ok: boolean;
  failure: boolean;
  ttftMs?: number;
  outputTokens?: number;
  generationMs?: number;
}

/** Events that say nothing to the client yet: a failure after them can still fall back. */
const PREAMBLE: ReadonlySet<StreamEvent['type']> = new Set(['start', 'usage', 'text-start', 'thinking-start']);

/** Whether an event is still preamble; a forwarded frame is until one carries output (docs/decisions/0017). */
function isPreamble(event: StreamEvent): boolean {
  return event.type === 'wire' ? !event.content : PREAMBLE.has(event.type);
}

/** Reads up to the first event that carries content or an outcome; an error there is thrown. */
export async function holdUntilFirstEvent(iterator: AsyncIterator<StreamEvent>): Promise<StreamEvent[]> {
  const held: StreamEvent[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done) return held;
    if (next.value.type === 'error') throw next.value.error;
    held.push(next.value);
    if (!isPreamble(next.value)) return held;
  }
}

/**
 * Relays the rest of an upstream stream: the held events first, the served model written into
 * `start`, a failure turned into an in-stream error event, and at most one report when it ends.
 * A stream that ends without a finish (the upstream closed early) ends with an error event too:
 * a truncated answer is never presented as a clean finish. `release` runs once, however it ended.
 */
export async function* relayStream(
  held: StreamEvent[],
  iterator: AsyncIterator<StreamEvent>,
  opts: {
    model: string;
    signal: AbortWatch;
    clientSignal: AbortWatch;
    startedAt: number;
    firstEventAt: number;
    report(r: StreamReport): void;
    /** Called once the relay is over, however it ended. */
    release?(): void;
  },
): AsyncGenerator<StreamEvent> {
  const rewrite = (event: StreamEvent): StreamEvent => (event.type === 'start' ? { ...event, model: opts.model } : event);
  let outputTokens: number | undefined;
  let finished = false;
  let failed = false;
  try {
    for (const event of held) yield rewrite(event);
    // Not kept for the stream's life: the held frames are its first, parsed payloads and all.
    held.length = 0;
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (next.value.type === 'finish') {
        finished = true;
        outputTokens = next.value.usage?.outputTokens;
      }
      if (next.value.type === 'error' && !failed) {
        failed = true;
        const error = next.value.error;
        opts.report({ ok: false, failure: !error.local && (error.status >= 500 || error.status === 429) });
      }
      yield rewrite(next.value);
    }
  } catch (error) {
    if (opts.clientSignal.aborted || failed) return;
    failed = true;
    const gatewayError = toGatewayError(error, opts.signal);
    opts.report({ ok: false, failure: !gatewayError.local });
    yield { type: 'error', error: gatewayError };
    return;
  } finally {
    await iterator.return?.();
    opts.release?.();
  }
  if (failed || opts.clientSignal.aborted) return;
  if (!finished) {
    opts.report({ ok: false, failure: true });
    yield { type: 'error', error: upstreamUnreachable('the stream ended before the answer was complete') };
    return;
  }
  opts.report({ ok: true, failure: false, ttftMs: opts.firstEventAt - opts.startedAt, outputTokens, generationMs: Date.now() - opts.firstEventAt });
}
