import { defaultResolver, vetUpstreamUrl, type HostResolver, type VettedUpstream } from '@rosetta/providers';

export interface WebhookUrlOptions {
  /** Resolves host names; the system resolver by default (tests pass their own). */
  resolve?: HostResolver;
}

/**
 * Vets a webhook URL as the admin API saves it (a webhook guardrail's `url`, an alert webhook's):
 * https to a public address, unless its host is in WEBHOOK_ALLOW_HOSTS (then a private or
 * loopback address, and http, are allowed); never credentials in the URL. Throws
 * `GatewayError.invalidRequest` naming `param` (e.g. `guardrails[2].url`). The data plane vets the
 * URL again when it calls it: a name that resolved to a public address at save time may not now.
 */
export function vetWebhookUrl(url: string, allowHosts: readonly string[], param: string, options: WebhookUrlOptions = {}): Promise<VettedUpstream> {
  return vetUpstreamUrl(url, { allowHosts, param, resolve: options.resolve });
}

/** Why a webhook URL cannot be called now: refused by the SSRF guard, or its name does not resolve. */
export type WebhookUrlRefusal = 'refused_url' | 'unreachable';

export type WebhookTarget = { ok: true; target: VettedUpstream } | { ok: false; reason: WebhookUrlRefusal };

export interface WebhookTargetsOptions extends WebhookUrlOptions {
  /** How long a vetted URL (its pinned address) is reused; default 30 s. */
  ttlMs?: number;
  /** How long a refusal is remembered; default 5 s. */
  refusalTtlMs?: number;
  /** URLs remembered at most; default 256, least recently used dropped first. */
  maxEntries?: number;
  clock?: () => number;
}

interface Entry {
  expiresAt: number;
  target: Promise<WebhookTarget>;
}

/**
 * Vetted webhook URLs, each reused for a short time so the hot path neither resolves DNS nor
 * opens a connection per request: the vetted result carries the pinned dispatcher (one keep-alive
 * pool per host and address), and a DNS answer that changes later (rebinding) cannot move it.
 * Concurrent requests for a URL not yet vetted share one vetting.
 */
export class WebhookTargets {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly refusalTtlMs: number;
  private readonly maxEntries: number;
  private readonly clock: () => number;

  constructor(
    private readonly allowHosts: readonly string[],
    private readonly options: WebhookTargetsOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.refusalTtlMs = options.refusalTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 256;
    this.clock = options.clock ?? Date.now;
  }

  get(url: string): Promise<WebhookTarget> {
    const now = this.clock();
    const cached = this.entries.get(url);
    this.entries.delete(url);
    if (cached && cached.expiresAt > now) {
      this.entries.set(url, cached);
      return cached.target;
    }
    const entry: Entry = { expiresAt: now + this.ttlMs, target: this.vet(url) };
    void entry.target.then((target) => {
      if (!target.ok) entry.expiresAt = Math.min(entry.expiresAt, this.clock() + this.refusalTtlMs);
    });
    this.entries.set(url, entry);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    return entry.target;
  }

  private async vet(url: string): Promise<WebhookTarget> {
    let unresolved = false;
    const base = this.options.resolve ?? defaultResolver;
    // The guard says "could not be resolved" as a refusal; for a check that is an unreachable host.
    const resolve: HostResolver = async (host) => {
      try {
        const answers = await base(host);
        if (answers.length === 0) unresolved = true;
        return answers;
      } catch (error) {
        unresolved = true;
        throw error;
      }
    };
    try {
      return { ok: true, target: await vetUpstreamUrl(url, { allowHosts: this.allowHosts, param: 'url', resolve }) };
    } catch {
      return { ok: false, reason: unresolved ? 'unreachable' : 'refused_url' };
    }
  }
}
