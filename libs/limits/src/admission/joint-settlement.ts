import type { AppLogger } from '@rosetta/platform';
import type { SharedRedis } from '../limiter/rate-limit.service';
import type { JointRequest } from './redis-joint-store';

/**
 * One settle script for an admission's token reservation and budget hold, sent once each half it
 * has is known: the tokens when the answer ends, the cost when its ledger row is written (moments
 * apart). Never awaited by the response: a failure is logged, and the reservation and the hold
 * then stay counted until they expire (the safe direction).
 */
export class JointSettlement {
  private actualTokens?: number;
  private actualNanos?: number;
  private readonly madeAt = Date.now();

  constructor(
    private readonly shared: SharedRedis,
    private readonly admitted: JointRequest,
    private readonly now: number,
    private readonly logger: AppLogger,
  ) {}

  tokens(units: number): void {
    this.actualTokens = units;
    this.send();
  }

  /** Answers each budget's spend after the charge once the script ran (empty when it failed). */
  budget(nanos: number): Promise<number[]> {
    this.actualNanos = nanos;
    const after = new Promise<number[]>((resolve) => {
      this.budgetSettled = resolve;
    });
    this.send();
    return after;
  }

  private budgetSettled?: (after: number[]) => void;

  private send(): void {
    if (this.admitted.tokens && this.actualTokens === undefined) return;
    if (this.admitted.budget && this.actualNanos === undefined) return;
    // On the reservation's clock (tests inject `now`), advanced by real time.
    const at = this.now + (Date.now() - this.madeAt);
    this.shared.joint.settle(this.admitted, this.actualTokens ?? 0, this.actualNanos ?? 0, at).then(
      (after) => this.budgetSettled?.(after),
      (error: unknown) => {
        this.budgetSettled?.([]);
        this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'limits: admission settlement failed');
      },
    );
  }
}
