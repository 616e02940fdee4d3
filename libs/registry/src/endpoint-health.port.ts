/** Live measurements of an endpoint (null when there are no samples yet). */
export interface EndpointStatsView {
  status: 0 | 1 | 2 | 3;
  throughputP50: number | null;
  latencyP50: number | null;
  ttftP50: number | null;
  /** Percent of successful calls over the last 30 minutes; null without traffic. */
  uptime: number | null;
}

/**
 * Implemented by routing's health service; declared here so the registry can show live status
 * and uptime in model records without depending on routing. What routing needs from live health: whether an endpoint may be tried now (its circuit is not
 * open), its stats for sorting, and a place to report outcomes.
 */
export interface EndpointHealthPort {
  available(key: string): boolean;
  /** Right before a call: may it go ahead? Takes the single half-open probe slot when there is one. */
  acquire(key: string): boolean;
  /** The call ended without an outcome (the client went away): free a probe slot it held. */
  release(key: string): void;
  view(key: string): EndpointStatsView;
  report(key: string, outcome: { ok: boolean; failure: boolean; latencyMs: number; ttftMs?: number; outputTokens?: number; generationMs?: number }): void;
}

export const ENDPOINT_HEALTH = Symbol('ENDPOINT_HEALTH');

/** Until live health is wired: everything available, nothing measured. */
export const NO_HEALTH: EndpointHealthPort = {
  available: () => true,
  acquire: () => true,
  release: () => undefined,
  view: () => ({ status: 0, throughputP50: null, latencyP50: null, ttftP50: null, uptime: null }),
  report: () => undefined,
};
