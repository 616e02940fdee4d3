import { AbortLine, type AbortWatch } from '@rosetta/providers';
import { serverShutdownError, serverStop, type ServerStop } from './server-stop';

/** One upstream attempt's abort signal and how to end it. */
export interface AttemptSignal {
  readonly signal: AbortWatch;
  /** Aborts the attempt (its upstream request) and releases it. */
  abort(): void;
  /** The attempt is over: clears the time-out and stops listening to the client. Idempotent. */
  release(): void;
}

/**
 * Aborts when the client goes away, when the attempt's total time runs out (reason: a
 * `TimeoutError`, which the transport reports as an upstream time-out), or by hand. One AbortLine,
 * one timer and one listener per attempt, all let go on release: `AbortSignal.any` with
 * `AbortSignal.timeout` cost ~40 µs and extra garbage per request on the hot path. A forced stop
 * of the gateway (`stop`) ends it too, with `serverShutdownError`.
 */
export function attemptSignal(client: AbortWatch, totalMs: number, stop: ServerStop = serverStop): AttemptSignal {
  const line = new AbortLine();
  if (client.aborted || stop.isStopped) {
    line.abort(client.aborted ? client.reason : serverShutdownError());
    return { signal: line, abort: () => undefined, release: () => undefined };
  }
  let timer: NodeJS.Timeout | undefined;
  const release = (): void => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    client.off('abort', onClient);
    unwatch();
  };
  const abort = (reason?: unknown): void => {
    release();
    line.abort(reason);
  };
  const onClient = (): void => abort(client.reason);
  timer = setTimeout(() => abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), totalMs);
  timer.unref();
  client.once('abort', onClient);
  const unwatch = stop.watch(() => abort(serverShutdownError()));
  return { signal: line, abort: () => abort(), release };
}
