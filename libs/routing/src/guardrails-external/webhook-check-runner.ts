import type { ExternalCheckContext, ExternalCheckResult, GuardrailStage, WebhookCheck } from '@rosetta/guardrails';
import { CheckDeadline, EXPIRED } from './check-deadline';
import { exchangeWebhook } from './webhook-exchange';
import type { WebhookTargets } from './webhook-url';
import { parseWebhookVerdict } from './webhook-verdict';

/**
 * Runs a webhook check (ARCHITECTURE §9, Governance): POSTs `{"stage", "text", "request_id",
 * "key_id"}` to the check's URL and reads the verdict. The URL passes the SSRF guard (vetted and
 * pinned, reused for a short time); `timeout_ms` bounds the whole exchange, the vetting included,
 * and the wait ends when the client leaves. Whatever goes wrong is a verdict (`unavailable` with
 * a reason), never an exception, and never mentions the text.
 */
export class WebhookCheckRunner {
  constructor(private readonly targets: WebhookTargets) {}

  async run(check: WebhookCheck, text: string, stage: GuardrailStage, context: ExternalCheckContext): Promise<ExternalCheckResult> {
    const deadline = new CheckDeadline(check.timeoutMs, context.signal);
    try {
      const vetted = await deadline.race(this.targets.get(check.url));
      if (vetted === EXPIRED) return unavailable('timeout');
      if (!vetted.ok) return unavailable(vetted.reason);
      const payload = JSON.stringify({ stage, text, request_id: context.requestId, key_id: context.keyId });
      const answer = await exchangeWebhook(vetted.target, payload, deadline);
      if (!answer.ok) return unavailable(answer.reason);
      return { verdict: parseWebhookVerdict(answer.body, text) };
    } finally {
      deadline.end();
    }
  }
}

function unavailable(reason: 'timeout' | 'unreachable' | 'refused_url' | 'bad_verdict' | 'upstream_error'): ExternalCheckResult {
  return { verdict: { action: 'unavailable', reason } };
}
