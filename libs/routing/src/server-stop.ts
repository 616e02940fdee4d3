import { GatewayError, SERVER_SHUTDOWN } from '@rosetta/canonical';

/**
 * The gateway was told to stop now (a second stop signal, or the drain's grace period ran out):
 * every upstream attempt still running is ended with `serverShutdownError`, so a stream ends with
 * its dialect's in-stream error and its row says `server_shutdown` instead of the client having
 * gone (issue 27). One per process; watchers are a set, so ten thousand open streams come and go
 * in constant time each.
 */
export class ServerStop {
  private readonly watchers = new Set<() => void>();
  private stopped = false;

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Calls `onStop` when the stop comes (never if it came already: ask `isStopped`); returns how to stop watching. */
  watch(onStop: () => void): () => void {
    if (this.stopped) return () => undefined;
    this.watchers.add(onStop);
    return () => this.watchers.delete(onStop);
  }

  /** Ends every watched attempt; returns how many there were. */
  stop(): number {
    this.stopped = true;
    const watching = [...this.watchers];
    this.watchers.clear();
    for (const onStop of watching) onStop();
    return watching.length;
  }
}

export const serverStop = new ServerStop();

/** Local (never an endpoint's failure), not retried elsewhere: this gateway is going away. */
export function serverShutdownError(): GatewayError {
  return new GatewayError('overloaded_error', 'The gateway is shutting down and ended this request before its answer was complete; send it again', {
    status: 503,
    code: SERVER_SHUTDOWN,
    local: true,
  });
}
