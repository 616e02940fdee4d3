import { ConfigError } from '@rosetta/platform';
import { DEFAULT_RETRY, type RetryPolicy } from './delivery-backoff';

/** How alerts are delivered (docs/guide/alerts.md); read and validated at start. */
export interface AlertsConfig {
  /** ALERTS_POLL_MS: how often each replica looks for due deliveries (new events wake it at once). */
  pollMs: number;
  /** ALERTS_TIMEOUT_MS: one delivery attempt's time-out, connect to last byte. */
  timeoutMs: number;
  /** ALERTS_RETRY_BASE_MS and ALERTS_MAX_ATTEMPTS. */
  retry: RetryPolicy;
  /** ALERTS_GUARDRAIL_BLOCKED_PER_HOUR: `guardrail.blocked` fires when a check blocks more than this in an hour. */
  guardrailBlockedPerHour: number;
  /**
   * ALERTS_SPEND_DAILY_PERIOD_MS: the summary's period, a day unless shortened for a test (each
   * period, aligned to the epoch, is summarised once after it ends).
   */
  spendPeriodMs: number;
}

export const DAY_MS = 86_400_000;

function int(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got '${raw}'`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function alertsConfigFromEnv(env: Record<string, string | undefined> = process.env): AlertsConfig {
  return {
    pollMs: int(env, 'ALERTS_POLL_MS', 5_000, 50, 3_600_000),
    timeoutMs: int(env, 'ALERTS_TIMEOUT_MS', 10_000, 100, 120_000),
    retry: {
      baseMs: int(env, 'ALERTS_RETRY_BASE_MS', DEFAULT_RETRY.baseMs, 10, 3_600_000),
      maxDelayMs: DEFAULT_RETRY.maxDelayMs,
      maxAttempts: int(env, 'ALERTS_MAX_ATTEMPTS', DEFAULT_RETRY.maxAttempts, 1, 50),
    },
    guardrailBlockedPerHour: int(env, 'ALERTS_GUARDRAIL_BLOCKED_PER_HOUR', 100, 1, 1_000_000_000),
    spendPeriodMs: int(env, 'ALERTS_SPEND_DAILY_PERIOD_MS', DAY_MS, 1_000, DAY_MS),
  };
}

/** Injection token of the AlertsConfig. */
export const ALERTS_CONFIG = Symbol('ALERTS_CONFIG');
