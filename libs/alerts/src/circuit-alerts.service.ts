import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { APP_LOGGER, REDIS_CLIENT, type AppLogger, type RedisClient } from '@rosetta/platform';
import { CircuitBreakerService, type CircuitChange } from '@rosetta/routing';
import { circuitClosedEvent, circuitOpenEvent, type CircuitOpening } from './alert-payloads';
import { AlertsService } from './alerts.service';

/** Where the replicas agree on a provider's current opening. */
export const CIRCUIT_KEY_PREFIX = 'rosetta:alerts:circuit:';
/** An opening the replicas forgot to close (all of them died) stops being shared after this. */
const OPENING_TTL_MS = 6 * 3_600_000;

/** Deletes the shared opening only if it is still the one this replica closes. */
const CLOSE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

interface ProviderState {
  /** This replica's endpoints of the provider whose circuits are open. */
  open: Set<string>;
  opening?: Promise<CircuitOpening>;
}

/**
 * `provider.circuit_open` / `provider.circuit_closed`, one per provider and opening across
 * replicas. Each replica's breakers are its own (per endpoint); a provider is open here while any
 * of its endpoints is. The first replica to see a provider open stores the opening in Redis (SET
 * NX); the others find it and raise the same event id, which the outbox keeps once. The replica
 * that sees it close first raises the closing, and clears the opening so the next is a new one.
 * Without Redis there is one replica, and the opening is its own.
 */
@Injectable()
export class CircuitAlertsService implements OnModuleInit {
  private readonly providers = new Map<string, ProviderState>();

  constructor(
    private readonly breakers: CircuitBreakerService,
    private readonly alerts: AlertsService,
    @Inject(REDIS_CLIENT) private readonly redis: RedisClient | null,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {}

  onModuleInit(): void {
    this.breakers.onChange((change) => this.changed(change));
  }

  /** Called by the breaker on the request path: only bookkeeping here, the rest is queued. */
  changed(change: CircuitChange): void {
    const provider = change.endpoint.split('/')[0] ?? change.endpoint;
    let state = this.providers.get(provider);
    if (!state) {
      state = { open: new Set() };
      this.providers.set(provider, state);
    }
    if (change.state === 'open') {
      const first = state.open.size === 0;
      state.open.add(change.endpoint);
      if (!first) return;
      const local: CircuitOpening = { provider, opening: String(change.at), endpoint: change.endpoint, openedAt: new Date(change.at) };
      state.opening = this.agree(local);
      void state.opening.then((opening) => this.alerts.raise(circuitOpenEvent(opening)));
      return;
    }
    if (!state.open.delete(change.endpoint) || state.open.size > 0) return;
    const opening = state.opening;
    state.opening = undefined;
    void opening?.then((o) => this.closed(o, new Date(change.at)));
  }

  /** The fleet's opening: this one if no replica had one yet, else theirs. */
  private async agree(local: CircuitOpening): Promise<CircuitOpening> {
    if (!this.redis) return local;
    const key = `${CIRCUIT_KEY_PREFIX}${local.provider}`;
    const value = JSON.stringify({ opening: local.opening, endpoint: local.endpoint, openedAt: local.openedAt.getTime() });
    try {
      const set = await this.redis.set(key, value, 'PX', OPENING_TTL_MS, 'NX');
      if (set === 'OK') return local;
      const stored = await this.redis.get(key);
      const theirs = stored ? (JSON.parse(stored) as { opening: string; endpoint: string; openedAt: number }) : undefined;
      return theirs ? { provider: local.provider, opening: theirs.opening, endpoint: theirs.endpoint, openedAt: new Date(theirs.openedAt) } : local;
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error), provider: local.provider }, 'alerts: circuit opening not shared (Redis unavailable); this replica names its own');
      return local;
    }
  }

  private async closed(opening: CircuitOpening, at: Date): Promise<void> {
    this.alerts.raise(circuitClosedEvent(opening, at));
    if (!this.redis) return;
    const value = JSON.stringify({ opening: opening.opening, endpoint: opening.endpoint, openedAt: opening.openedAt.getTime() });
    try {
      await this.redis.eval(CLOSE_LUA, 1, `${CIRCUIT_KEY_PREFIX}${opening.provider}`, value);
    } catch {
      // Left to expire: the next opening then reuses this id until it does, and is not alerted.
    }
  }
}
