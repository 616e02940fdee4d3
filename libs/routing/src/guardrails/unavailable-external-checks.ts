import type { ExternalCheckResult, ExternalCheckRunner } from '@rosetta/guardrails';

/**
 * The runner bound when no webhook/model runner is: every external check is `unavailable`, so
 * its `fail` choice applies (closed: the request is blocked, never silently let through).
 */
export const UNAVAILABLE_EXTERNAL_CHECKS: ExternalCheckRunner = {
  run: () => Promise.resolve<ExternalCheckResult>({ verdict: { action: 'unavailable', reason: 'upstream_error' } }),
};
