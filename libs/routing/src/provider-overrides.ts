import { GatewayError, type ProviderConfigOverride, type RoutingPreferences } from '@rosetta/canonical';
import { vetUpstreamUrl, type UpstreamTarget } from '@rosetta/providers';

/**
 * ARCHITECTURE §4.9, per attempt: `api_key` brings the caller's own key; a `base_url` (for the
 * provider or one model) is honoured only beside an `api_key` in the same override — the
 * operator's keys never go to a caller-chosen host — and only through the SSRF guard, whose
 * pinned dispatcher defeats DNS rebinding. `timeout` is in milliseconds, and only ever shortens the
 * operator's: a budget hold lives as long as the operator's time-out (plus a margin), so a caller
 * who could lengthen it would be admitted against money still in flight (issue 26).
 */
export async function applyProviderOverrides(
  target: UpstreamTarget,
  model: string,
  prefs: RoutingPreferences,
  allowHosts: string[],
): Promise<UpstreamTarget> {
  const override: ProviderConfigOverride | undefined = prefs.providerConfigs?.[target.provider];
  if (!override) return target;
  const param = `provider_configs.${target.provider}`;
  const endpoint = override.endpoint_overrides?.[model];
  const baseUrl = endpoint?.base_url ?? override.base_url ?? undefined;
  const next: UpstreamTarget = { ...target, timeouts: { ...target.timeouts } };
  if (override.api_key) next.apiKey = override.api_key;
  if (baseUrl) {
    if (!override.api_key) {
      throw GatewayError.invalidRequest(`${param}: a base_url needs an api_key in the same override (the gateway's own keys never go to a caller-chosen host)`, `${param}.base_url`);
    }
    const vetted = await vetUpstreamUrl(baseUrl, { allowHosts, param: endpoint?.base_url ? `${param}.endpoint_overrides.${model}.base_url` : `${param}.base_url` });
    next.baseUrl = vetted.url.toString().replace(/\/+$/, '');
    next.dispatcher = vetted.dispatcher;
  }
  if (endpoint?.timeout !== undefined) {
    if (!Number.isInteger(endpoint.timeout) || endpoint.timeout <= 0) {
      throw GatewayError.invalidRequest(`${param}.endpoint_overrides.${model}.timeout must be a positive whole number of milliseconds`, `${param}.endpoint_overrides.${model}.timeout`);
    }
    const timeout = Math.min(endpoint.timeout, target.timeouts.totalMs);
    next.timeouts.totalMs = timeout;
    next.timeouts.firstByteMs = Math.min(next.timeouts.firstByteMs, timeout);
    next.timeouts.idleMs = Math.min(next.timeouts.idleMs, timeout);
  }
  return next;
}

/** With a BYOK key the caller can use a provider the operator has no key for. */
export function hasCallerKey(prefs: RoutingPreferences, provider: string): boolean {
  return Boolean(prefs.providerConfigs?.[provider]?.api_key);
}
