import { AbortLine } from '@rosetta/providers';

/** What `race` answers when the deadline passed, or the client left, before the promise settled. */
export const EXPIRED: unique symbol = Symbol('expired');

/**
 * One external check's time: a signal (an AbortLine, which undici and the executor take) that
 * aborts when the check's time is up or when the client leaves, whichever comes first. Every
 * wait of the check — DNS, connect, the answer's last byte — races it, so `timeoutMs` bounds the
 * whole exchange. `end()` must be called once the check is over (it clears the timer).
 */
export class CheckDeadline {
  readonly signal = new AbortLine();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onClientAbort = (): void => this.signal.abort(new DOMException('The client left', 'AbortError'));

  constructor(
    timeoutMs: number,
    private readonly client?: AbortSignal,
  ) {
    if (client?.aborted) this.onClientAbort();
    else client?.addEventListener('abort', this.onClientAbort, { once: true });
    this.timer = setTimeout(() => this.signal.abort(new DOMException('The check timed out', 'TimeoutError')), timeoutMs);
  }

  get expired(): boolean {
    return this.signal.aborted;
  }

  /** The promise's outcome, or EXPIRED as soon as the deadline passes (the promise is left to settle alone). */
  race<T>(promise: Promise<T>): Promise<T | typeof EXPIRED> {
    if (this.signal.aborted) {
      promise.catch(() => undefined);
      return Promise.resolve(EXPIRED);
    }
    return new Promise<T | typeof EXPIRED>((resolve, reject) => {
      const onAbort = (): void => resolve(EXPIRED);
      this.signal.once('abort', onAbort);
      promise.then(
        (value) => {
          this.signal.off('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          this.signal.off('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  end(): void {
    clearTimeout(this.timer);
    this.client?.removeEventListener('abort', this.onClientAbort);
  }
}
