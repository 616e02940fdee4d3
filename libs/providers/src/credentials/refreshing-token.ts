/** A bearer token and when it stops being accepted (epoch milliseconds). */
export interface ExpiringToken {
  token: string;
  expiresAtMs: number;
}

export interface RefreshingTokenOptions {
  /** Fetches a new token from the identity service (metadata server, token endpoint, MSAL...). */
  fetch: () => Promise<ExpiringToken>;
  /** Refresh this long before expiry, at most (default 5 minutes; half a short token's life). */
  refreshBeforeMs?: number;
  /** A token with less left than this is not sent: the call waits for a new one (default 10 s). */
  minimumValidityMs?: number;
  now?: () => number;
  /** A call waits at most this long for the token service (default 10 s); the fetch itself goes on. */
  fetchTimeoutMs?: number;
  /** Told when a refresh made behind a still-valid token fails (the token in hand is kept). */
  onBackgroundFailure?: (error: unknown) => void;
}

interface Held extends ExpiringToken {
  refreshAtMs: number;
}

/**
 * One cloud credential's access token, cached for every request of the process: a call with a
 * fresh token costs no I/O; a token nearing expiry is refreshed once, behind the calls that keep
 * using it; only a missing or expiring token makes calls wait — for one shared fetch, never one
 * fetch per request.
 */
export class RefreshingToken {
  private held?: Held;
  private inFlight?: Promise<Held>;
  private readonly refreshBeforeMs: number;
  private readonly minimumValidityMs: number;
  private readonly now: () => number;

  constructor(private readonly options: RefreshingTokenOptions) {
    this.refreshBeforeMs = options.refreshBeforeMs ?? 5 * 60_000;
    this.minimumValidityMs = options.minimumValidityMs ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** A token good for at least the minimum validity, fetched only when none is cached. */
  get(): Promise<string> {
    const now = this.now();
    const held = this.held;
    if (held && now < held.refreshAtMs) return Promise.resolve(held.token);
    if (held && held.expiresAtMs - now > this.minimumValidityMs) {
      this.refresh().catch((error: unknown) => this.options.onBackgroundFailure?.(error));
      return Promise.resolve(held.token);
    }
    return this.waitForRefresh();
  }

  private waitForRefresh(): Promise<string> {
    const limit = this.options.fetchTimeoutMs ?? 10_000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the token service did not answer within ${limit} ms`)), limit);
      timer.unref();
    });
    const refreshing = this.refresh();
    refreshing.catch(() => undefined); // a late failure is the next caller's to see
    return Promise.race([refreshing.then((fresh) => fresh.token), late]).finally(() => clearTimeout(timer));
  }

  /** Forgets the cached token (the upstream refused it): the next call fetches a new one. */
  invalidate(): void {
    this.held = undefined;
  }

  private refresh(): Promise<Held> {
    this.inFlight ??= this.options
      .fetch()
      .then((token) => {
        const fetchedAt = this.now();
        const life = Math.max(0, token.expiresAtMs - fetchedAt);
        const held = { ...token, refreshAtMs: token.expiresAtMs - Math.min(this.refreshBeforeMs, life / 2) };
        this.held = held;
        return held;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
