/**
 * Failed admin-token sign-ins per client address: after `limit` failures within `windowMs`, more
 * attempts are refused until the oldest failure leaves the window. In memory, per replica: it
 * slows guessing by hand or by script; the token's own length is what makes guessing hopeless.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 10,
    private readonly windowMs = 5 * 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Milliseconds until this address may try again; 0 when it may now. */
  waitMs(address: string): number {
    const recent = this.recent(address);
    return recent.length < this.limit ? 0 : recent[0]! + this.windowMs - this.clock();
  }

  failed(address: string): void {
    const recent = this.recent(address);
    recent.push(this.clock());
    this.failures.set(address, recent);
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
  }

  succeeded(address: string): void {
    this.failures.delete(address);
  }

  private recent(address: string): number[] {
    const since = this.clock() - this.windowMs;
    return (this.failures.get(address) ?? []).filter((at) => at > since);
  }
}
