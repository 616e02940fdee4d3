import type { EndpointHealthPort } from '@rosetta/registry';

export type HealthOutcome = Parameters<EndpointHealthPort['report']>[1];

/**
 * One request's hold on one endpoint's health. `acquire` may take the endpoint's single half-open
 * probe slot; the holder owes the endpoint exactly one verdict (`report`) or gives the slot back
 * (`release`, idempotent, safe in a `finally`). A hold that is not `shared` — a call made with the
 * caller's own key or host — neither takes a slot nor reports: one tenant's key or server must not
 * move the circuit of the operator's endpoint for everyone.
 */
export class AttemptHealth {
  private held = false;

  constructor(
    private readonly port: EndpointHealthPort,
    private readonly key: string,
    private readonly shared: boolean,
  ) {}

  acquire(): boolean {
    if (!this.shared) return true;
    this.held = this.port.acquire(this.key);
    return this.held;
  }

  report(outcome: HealthOutcome): void {
    if (!this.shared) return;
    this.held = false;
    this.port.report(this.key, outcome);
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.port.release(this.key);
  }

  /** Moves the hold to what outlives the attempt loop (a stream being relayed); this one lets go. */
  handOff(): AttemptHealth {
    const next = new AttemptHealth(this.port, this.key, this.shared);
    next.held = this.held;
    this.held = false;
    return next;
  }
}
