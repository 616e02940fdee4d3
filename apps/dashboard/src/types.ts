/** What the admin API answers, as far as the pages read it. */

export type Role = 'admin' | 'viewer';

export interface SessionView {
  authenticated: boolean;
  sso: boolean;
  role?: Role;
  name?: string;
  method?: string;
  expires_at?: string;
  /** Where clients send requests: this page's origin, or another port (and host) when the dashboard is on ADMIN_PORT. */
  data_plane?: { same_origin: true } | { same_origin: false; host: string | null; port: number };
}

/** The gateway's base URL for clients, as the page can tell it; undefined when the gateway did not say. */
export function dataPlaneUrl(view: SessionView['data_plane'], page: { origin: string; protocol: string; hostname: string }): string | undefined {
  if (!view) return undefined;
  if (view.same_origin) return page.origin;
  // A separate listener speaks plain HTTP (TLS, where there is some, ends in front of it on a port the gateway cannot know).
  const host = view.host ?? page.hostname;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${view.port}`;
}

export type CacheMode = 'off' | 'exact' | 'semantic';

/**
 * A response cache setting (issue 29). On a key, `null` inherits its plan's; on a plan, `null` is
 * off. The key's setting wins over its plan's.
 */
export interface CacheSetting {
  mode: CacheMode;
  /** How long an answer is kept, 1 to 2,592,000 seconds (default 3600). */
  ttl_s: number;
  /** How alike the last user turn must be for a semantic hit, 0 to 1 (default 0.95). */
  similarity: number;
}

/** Managed provider prompt caching: `auto` places the breakpoints; `null` inherits. */
export type PromptCache = 'auto' | 'off';

/** A guardrail check as the admin API shows it (docs/guide/guardrails.md). */
export interface GuardrailCheckJson {
  check: 'pii' | 'secrets' | 'regex' | 'webhook' | 'model';
  on: 'input' | 'output' | 'both';
  action: 'block' | 'redact' | 'log';
  [field: string]: unknown;
}

/** What a check found on a request: the kinds, never the text. */
export interface GuardrailVerdict {
  check: GuardrailCheckJson['check'];
  source: 'key' | 'team' | 'plan';
  index: number;
  stage: 'input' | 'output';
  action: GuardrailCheckJson['action'];
  kinds: string[];
  unavailable?: string;
}

export interface Key {
  id: string;
  name: string;
  plan: string;
  prefix: string;
  team_id: string | null;
  rpm: number | null;
  tpm: number | null;
  budget_usd: string | null;
  /** Each end user's budget over budget_period. */
  end_user_budget_usd: string | null;
  budget_period: 'day' | 'month' | 'total' | null;
  models: string[] | null;
  route_knob: number | null;
  cache: CacheSetting | null;
  prompt_cache: PromptCache | null;
  guardrails?: GuardrailCheckJson[] | null;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  spend_usd?: string;
  spend_period?: string;
  remaining_usd?: string | null;
  resets_at?: string | null;
}

export interface Team {
  id: string;
  name: string;
  budget_usd: string | null;
  budget_period: 'day' | 'month' | 'total' | null;
  guardrails?: GuardrailCheckJson[] | null;
  created_at: string;
  spend_usd?: string;
  spend_period?: string;
  remaining_usd?: string | null;
  resets_at?: string | null;
}

export interface Plan {
  name: string;
  rpm: number | null;
  tpm: number | null;
  cache: CacheSetting | null;
  prompt_cache: PromptCache | null;
  guardrails?: GuardrailCheckJson[] | null;
}

export interface UsageRow {
  day?: string;
  hour?: string;
  api_key_id?: string | null;
  key_name?: string | null;
  team_id?: string | null;
  team_name?: string | null;
  served_model?: string | null;
  provider?: string | null;
  end_user?: string | null;
  tag?: string | null;
  requests: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  reasoning_tokens: number;
  cost_usd: string;
  /** Requests answered from the response cache. */
  cache_hits: number;
  /** What those hits would have cost, a decimal string like cost_usd. */
  saved_usd: string;
}

export interface UsageReport {
  from: string;
  to: string;
  group_by: string[];
  data: UsageRow[];
  /** Of the whole report, on every page. */
  totals: Omit<UsageRow, 'day' | 'hour'>;
  has_more: boolean;
  /** The `cursor` of the next page; null on the last. */
  next_cursor: string | null;
}

export interface EndpointHealth {
  status: 0 | 1 | 2 | 3;
  uptime_pct: number | null;
  calls_30m: number;
  failures_30m: number;
  ttft_ms: { p50: number | null; p90: number | null };
  latency_ms: { p50: number | null; p90: number | null };
  throughput_tps: { p50: number | null; p90: number | null };
  circuit: { state: 'closed' | 'open' | 'half-open'; consecutive_failures: number; open_until: string | null };
}

export interface ProviderEndpoint {
  model: string;
  /** `chat`, or `embedding` for embedding models. */
  kind?: string;
  upstream_model: string;
  disabled: boolean;
  context_length: number;
  max_completion_tokens: number;
  pricing: { prompt: string; completion: string };
  /** The same prices in USD per million tokens, as the form shows and sends them. */
  usd_per_million_tokens: { prompt: string; completion: string };
  health: EndpointHealth;
}

export interface Provider {
  slug: string;
  protocol: string;
  base_url: string | null;
  configured: boolean;
  has_api_key: boolean;
  disabled: boolean;
  builtin: boolean;
  source: string;
  endpoints: ProviderEndpoint[];
  /** A cloud platform (`azure`, `bedrock`, `vertex`) and its settings, when the provider is reached through one. */
  platform?: string;
  auth?: string;
  api_version?: string;
  region?: string;
  project?: string;
  location?: string;
}

export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  role: string | null;
  method: string;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_name: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  user_agent: string | null;
}

export interface ModelSummary {
  id: string;
}

/** A request as the ledger recorded it (`GET /admin/requests`, `GET /admin/requests/{id}`). */
export interface LedgerRow {
  request_id: string;
  client_request_id: string | null;
  created_at: string;
  api_key_id: string | null;
  key_name: string | null;
  team_id: string | null;
  team_name: string | null;
  dialect: string;
  requested_model: string | null;
  served_model: string | null;
  provider: string | null;
  status: number;
  error_type: string | null;
  input_tokens: number;
  output_tokens: number;
  /** Input tokens read from the provider's prompt cache. */
  cached_tokens: number;
  /** Input tokens written to the provider's prompt cache. */
  cache_write_tokens: number;
  reasoning_tokens: number;
  cost_usd: string;
  /** The response cache: answered from it, looked up and missed, or not used (off). */
  cache: 'hit' | 'miss' | null;
  /** What a hit would have cost ('0' otherwise). */
  saved_usd: string;
  latency_ms: number;
  ttft_ms: number | null;
  streamed: boolean;
  attempts: number;
  route: string | null;
  /** What the guardrails found and did; null when nothing was found. */
  guardrails?: GuardrailVerdict[] | null;
  /** Who the request was for (x-rosetta-end-user or the dialect's user field). */
  end_user?: string | null;
  tags?: string[] | null;
}

export interface LedgerPage {
  data: LedgerRow[];
  next_cursor: string | null;
}

/** An alert webhook (GET /admin/webhooks): never its secret. */
export interface Webhook {
  id: string;
  url: string;
  events: string[];
  created_at: string;
  /** Only in the answer to a POST that let the gateway generate it. */
  secret?: string;
  last_delivery: { status: 'pending' | 'delivered' | 'failed'; event_id: string; attempts: number; http_status: number | null; error: string | null; at: string } | null;
}
