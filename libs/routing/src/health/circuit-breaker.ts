/**
 * A circuit breaker per endpoint, in process.
 *
 * closed ──(N consecutive failures, or ≥ ratio failures among the last `windowSize` outcomes
 *           younger than `windowMs`, with at least `minSamples` of them)──► open
 * open ──(cool-down elapsed)──► half-open: one probe at a time (`tryAcquire` grants it)
 * half-open ──probe success──► closed (cool-down back to its base)
 * half-open ──probe failure──► open again, cool-down doubled (capped)
 *
 * While open, late outcomes of calls that started before the circuit opened are ignored. In
 * half-open, any reported outcome is taken as the probe's. A probe that never reports (a bug,
 * or an aborted call whose owner forgot `release`) frees its slot after `probeLeaseMs`.
 * Every method takes an optional `now` so tests (and callers that already read the clock) are
 * deterministic; by default the injected clock is used.
 */

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  consecutiveFailures?: number;
  /** How many recent outcomes the failure ratio looks at. Default 20. */
  windowSize?: number;
  /** Outcomes older than this do not count for the ratio. Default 60 s. */
  windowMs?: number;
  /** Fewest recent outcomes for the ratio rule to apply. Default 10. */
  minSamples?: number;
  /** Failure share (0..1) that opens the circuit. Default 0.5. */
  failureRatio?: number;
  /** First cool-down. Default 30 s. */
  cooldownMs?: number;
  /** Cap of the doubling cool-down. Default 5 min. */
  maxCooldownMs?: number;
  /** A granted probe that never reports frees its slot after this. Default 10 min (above the 600 s total time-out). */
  probeLeaseMs?: number;
  clock?: () => number;
}

export interface BreakerInfo {
  state: BreakerState;
  consecutiveFailures: number;
  /** Cool-down of the current (or next) opening, ms. */
  cooldownMs: number;
  /** When the circuit may go half-open (open only). */
  openUntil: number | null;
  probeInFlight: boolean;
}

/**
 * A circuit opening (closed → open; a failed probe re-opening it is the same opening) or closing
 * (a probe succeeded). Told synchronously: a listener only queues its work.
 */
export interface CircuitChange {
  endpoint: string;
  state: 'open' | 'closed';
  at: number;
}

export type CircuitListener = (change: CircuitChange) => void;

interface Circuit {
  state: 'closed' | 'open';
  consecutiveFailures: number;
  /** Ring of the last outcomes: time and whether it failed. */
  times: number[];
  failed: boolean[];
  next: number;
  size: number;
  openedAt: number;
  cooldownMs: number;
  /** Time the current probe was granted; null when none is out. */
  probeSince: number | null;
}

export class CircuitBreaker {
  private readonly circuits = new Map<string, Circuit>();
  private readonly threshold: number;
  private readonly windowSize: number;
  private readonly windowMs: number;
  private readonly minSamples: number;
  private readonly failureRatio: number;
  private readonly baseCooldownMs: number;
  private readonly maxCooldownMs: number;
  private readonly probeLeaseMs: number;
  private readonly clock: () => number;
  private readonly listeners: CircuitListener[] = [];

  constructor(options: CircuitBreakerOptions = {}) {
    this.threshold = options.consecutiveFailures ?? 5;
    this.windowSize = options.windowSize ?? 20;
    this.windowMs = options.windowMs ?? 60_000;
    this.minSamples = options.minSamples ?? 10;
    this.failureRatio = options.failureRatio ?? 0.5;
    this.baseCooldownMs = options.cooldownMs ?? 30_000;
    this.maxCooldownMs = Math.max(options.maxCooldownMs ?? 300_000, this.baseCooldownMs);
    this.probeLeaseMs = options.probeLeaseMs ?? 600_000;
    this.clock = options.clock ?? Date.now;
  }

  /** Calls `listener` on every opening and closing from now on (the alerts). */
  onChange(listener: CircuitListener): void {
    this.listeners.push(listener);
  }

  private changed(endpoint: string, state: 'open' | 'closed', at: number): void {
    for (const listener of this.listeners) {
      try {
        listener({ endpoint, state, at });
      } catch {
        // A listener's failure is its own; the breaker's decision stands.
      }
    }
  }

  /** The endpoints that have a circuit (every one that was called or reported). */
  endpoints(): string[] {
    return [...this.circuits.keys()];
  }

  state(endpoint: string, now: number = this.clock()): BreakerState {
    const circuit = this.circuits.get(endpoint);
    if (!circuit || circuit.state === 'closed') return 'closed';
    return now >= circuit.openedAt + circuit.cooldownMs ? 'half-open' : 'open';
  }

  info(endpoint: string, now: number = this.clock()): BreakerInfo {
    const circuit = this.circuits.get(endpoint);
    const state = this.state(endpoint, now);
    return {
      state,
      consecutiveFailures: circuit?.consecutiveFailures ?? 0,
      cooldownMs: circuit?.cooldownMs ?? this.baseCooldownMs,
      openUntil: circuit && circuit.state === 'open' ? circuit.openedAt + circuit.cooldownMs : null,
      probeInFlight: state === 'half-open' && this.probeOut(circuit, now),
    };
  }

  /**
   * May a call go to this endpoint now? Always when closed; never while open; when half-open,
   * only if no other probe is out, and the caller that gets `true` holds the probe until it
   * reports an outcome (or calls `release`).
   */
  tryAcquire(endpoint: string, now: number = this.clock()): boolean {
    const circuit = this.circuits.get(endpoint);
    if (!circuit || circuit.state === 'closed') return true;
    if (now < circuit.openedAt + circuit.cooldownMs) return false;
    if (this.probeOut(circuit, now)) return false;
    circuit.probeSince = now;
    return true;
  }

  /** Gives back a probe whose call ended without a verdict (client gone, aborted). */
  release(endpoint: string): void {
    const circuit = this.circuits.get(endpoint);
    if (circuit) circuit.probeSince = null;
  }

  onSuccess(endpoint: string, now: number = this.clock()): void {
    this.record(endpoint, false, now);
  }

  onFailure(endpoint: string, now: number = this.clock()): void {
    this.record(endpoint, true, now);
  }

  /** Reports one outcome: `failed` means the endpoint is to blame (5xx, 429, time-out, connection). */
  record(endpoint: string, failed: boolean, now: number = this.clock()): void {
    let circuit = this.circuits.get(endpoint);
    if (!circuit) {
      circuit = this.newCircuit();
      this.circuits.set(endpoint, circuit);
    }
    if (circuit.state === 'open') {
      if (now < circuit.openedAt + circuit.cooldownMs) return; // late result of a call from before the opening
      // Half-open: this is the probe's verdict.
      if (failed) this.open(circuit, now, Math.min(circuit.cooldownMs * 2, this.maxCooldownMs));
      else {
        this.close(endpoint);
        this.changed(endpoint, 'closed', now);
      }
      return;
    }
    this.push(circuit, now, failed);
    if (!failed) {
      circuit.consecutiveFailures = 0;
      return;
    }
    circuit.consecutiveFailures += 1;
    if (circuit.consecutiveFailures >= this.threshold || this.ratioExceeded(circuit, now)) {
      this.open(circuit, now, this.baseCooldownMs);
      this.changed(endpoint, 'open', now);
    }
  }

  /** Forgets an endpoint's state (operator action, endpoint removed). */
  reset(endpoint: string): void {
    const wasOpen = this.circuits.get(endpoint)?.state === 'open';
    this.circuits.delete(endpoint);
    if (wasOpen) this.changed(endpoint, 'closed', this.clock());
  }

  private newCircuit(): Circuit {
    return {
      state: 'closed',
      consecutiveFailures: 0,
      times: new Array<number>(this.windowSize).fill(0),
      failed: new Array<boolean>(this.windowSize).fill(false),
      next: 0,
      size: 0,
      openedAt: 0,
      cooldownMs: this.baseCooldownMs,
      probeSince: null,
    };
  }

  private probeOut(circuit: Circuit | undefined, now: number): boolean {
    return !!circuit && circuit.probeSince !== null && now - circuit.probeSince < this.probeLeaseMs;
  }

  private push(circuit: Circuit, now: number, failed: boolean): void {
    circuit.times[circuit.next] = now;
    circuit.failed[circuit.next] = failed;
    circuit.next = (circuit.next + 1) % this.windowSize;
    circuit.size = Math.min(circuit.size + 1, this.windowSize);
  }

  private ratioExceeded(circuit: Circuit, now: number): boolean {
    let total = 0;
    let failures = 0;
    for (let i = 0; i < circuit.size; i++) {
      if (now - (circuit.times[i] ?? 0) > this.windowMs) continue;
      total += 1;
      if (circuit.failed[i]) failures += 1;
    }
    return total >= this.minSamples && failures / total >= this.failureRatio;
  }

  private open(circuit: Circuit, now: number, cooldownMs: number): void {
    circuit.state = 'open';
    circuit.openedAt = now;
    circuit.cooldownMs = cooldownMs;
    circuit.probeSince = null;
    circuit.consecutiveFailures = 0;
    circuit.size = 0;
    circuit.next = 0;
  }

  private close(endpoint: string): void {
    // Back to a fresh closed circuit: empty history, cool-down back to its base.
    this.circuits.delete(endpoint);
  }
}
