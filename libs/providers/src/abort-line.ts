import { EventEmitter } from 'node:events';

/**
 * An abort signal on a plain EventEmitter, which undici accepts wherever it takes an AbortSignal.
 * On Node 20 adding and removing one listener on an AbortSignal costs ~11 µs (EventTarget
 * bookkeeping); the hot path adds several per request (client → attempt → undici), so the request
 * path uses this instead: `aborted`, `reason`, and one `abort` event.
 */
export class AbortLine extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;

  /** Aborts once; later calls do nothing. Listeners get the `abort` event. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** What code that only watches a signal needs of it. */
export type AbortWatch = Pick<AbortLine, 'aborted' | 'reason' | 'once' | 'off'>;
