import type { StreamEvent } from '@rosetta/canonical';
import type { AbortWatch } from '@rosetta/providers';
import { toGatewayError } from './gateway-errors';

export interface StreamReport {
  ok: boolean;
  failure: boolean;
  ttftMs?: number;
  outputTokens?: number;
  generationMs?: number;
}

/** Reads up to the first event that carries content or an outcome; an error there is thrown. */
export async function holdUntilFirstEvent(iterator: AsyncIterator<StreamEvent>): Promise<StreamEvent[]> {
  const held: StreamEvent[] = [];
  for (;;) {
    const next = await iterator.next();
    if (next.done) return held;
    if (next.value.type === 'error') throw next.value.error;
    held.push(next.value);
    if (next.value.type !== 'start' && next.value.type !== 'usage') return held;
  }
}

/**
 * Relays the rest of an upstream stream: the held events first, the served model written into
 * `start`, a failure turned into an in-stream error event, and one report when it ends.
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
  try {
    for (const event of held) yield rewrite(event);
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (next.value.type === 'finish') {
        finished = true;
        outputTokens = next.value.usage?.outputTokens;
      }
      if (next.value.type === 'error') opts.report({ ok: false, failure: next.value.error.status >= 500 || next.value.error.status === 429 });
      yield rewrite(next.value);
    }
  } catch (error) {
    if (opts.clientSignal.aborted) return;
    opts.report({ ok: false, failure: true });
    yield { type: 'error', error: toGatewayError(error, opts.signal) };
    return;
  } finally {
    await iterator.return?.();
    opts.release?.();
  }
  if (finished) {
    opts.report({ ok: true, failure: false, ttftMs: opts.firstEventAt - opts.startedAt, outputTokens, generationMs: Date.now() - opts.firstEventAt });
  }
}
