/** Requests and tokens per minute; `null` means unlimited. */
export interface ResolvedLimits {
  rpm: number | null;
  tpm: number | null;
}

/** The limits a plan carries; what `PlanRecord` provides. */
export interface PlanLimits {
  rpm: number | null;
  tpm: number | null;
}

/** The built-in tiers, used when a key names a plan that is not (or not yet) in the plan table. */
export const DEFAULT_PLANS: Readonly<Record<'free' | 'pro' | 'enterprise', PlanLimits>> = {
  free: { rpm: 100, tpm: 10_000 },
  pro: { rpm: 1_000, tpm: 100_000 },
  enterprise: { rpm: null, tpm: null },
};

/** All limits count over one minute. */
export const LIMIT_WINDOW_MS = 60_000;

/**
 * The limits for one key: a per-key `rpm`/`tpm` overrides its plan's value; otherwise the plan's
 * value applies, where `null` means unlimited.
 *
 * Missing plan (the key names a plan the cache does not hold: deleted, or the table not loaded):
 * a built-in tier name (`free`, `pro`, `enterprise`) gets that tier's defaults above; any other
 * name gets the `free` defaults (100 RPM / 10,000 TPM). The key's own values still override. An
 * unknown plan therefore never means unlimited: failing safe costs a caller throughput for a
 * moment, failing open would hand out unlimited use.
 *
 * A per-key `null` means "no override". Per-key values that are not finite non-negative numbers
 * are ignored; a plan value that is a negative or non-finite number counts as 0 (nothing
 * admitted) rather than unlimited. Fractions round down.
 */
export function resolveLimits(key: { plan: string; rpm: number | null; tpm: number | null }, plan?: PlanLimits | null): ResolvedLimits {
  const base = plan ?? builtIn(key.plan);
  return {
    rpm: pick(key.rpm, base.rpm),
    tpm: pick(key.tpm, base.tpm),
  };
}

function builtIn(name: string): PlanLimits {
  return Object.prototype.hasOwnProperty.call(DEFAULT_PLANS, name) ? DEFAULT_PLANS[name as keyof typeof DEFAULT_PLANS] : DEFAULT_PLANS.free;
}

function pick(override: number | null | undefined, planValue: number | null | undefined): number | null {
  if (isLimit(override)) return Math.floor(override);
  if (planValue === null || planValue === undefined) return null;
  return isLimit(planValue) ? Math.floor(planValue) : 0;
}

function isLimit(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
