import { Inject, Injectable } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { describeIssue, parseGuardrailPolicy, presentGuardrails, type GuardrailCheck } from '@rosetta/guardrails';
import { isStorableText, ROSETTA_CONFIG, UNSTORABLE_TEXT_MESSAGE, type RosettaConfig } from '@rosetta/platform';
import { vetWebhookUrl } from '@rosetta/routing';

/**
 * `guardrails` on a plan, team or key (ARCHITECTURE §9): undefined leaves it, null (or an empty
 * list) removes it, a list of checks replaces it. A bad policy is a 400 naming each field's path
 * (`guardrails[2].patterns[0]: ...`) and never echoing the value: patterns and URLs may be long,
 * and the answer may be logged.
 */
export function guardrailsOf(value: unknown, param = 'guardrails'): GuardrailCheck[] | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  const parsed = parseGuardrailPolicy(value, param);
  if (!parsed.ok) {
    throw GatewayError.invalidRequest(`Invalid guardrails: ${parsed.issues.map(describeIssue).join('; ')}`, parsed.issues[0]?.path ?? param);
  }
  const unstorable = unstorablePath(presentGuardrails(parsed.checks), param);
  if (unstorable) throw GatewayError.invalidRequest(`Invalid guardrails: ${unstorable}: ${UNSTORABLE_TEXT_MESSAGE}`, unstorable);
  return parsed.checks.length > 0 ? parsed.checks : null;
}

/** The path of the first string PostgreSQL's jsonb cannot hold (NUL, a lone surrogate). */
function unstorablePath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorablePath(item, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    const found = unstorablePath(item, `${path}.${name}`);
    if (found) return found;
  }
  return undefined;
}

/**
 * `guardrailsOf`, and each webhook check's URL through the SSRF guard (WEBHOOK_ALLOW_HOSTS) when
 * it is saved: a private or loopback address is refused then, naming `guardrails[i].url`, not
 * found later as a check that is always unavailable. The data plane vets it again at each call
 * (DNS can change), pinned against rebinding.
 */
@Injectable()
export class GuardrailsField {
  constructor(@Inject(ROSETTA_CONFIG) private readonly config: RosettaConfig) {}

  async parse(value: unknown, param = 'guardrails'): Promise<GuardrailCheck[] | null | undefined> {
    const checks = guardrailsOf(value, param);
    for (const [i, check] of (checks ?? []).entries()) {
      if (check.check === 'webhook') await vetWebhookUrl(check.url, this.config.webhookAllowHosts, `${param}[${i}].url`);
    }
    return checks;
  }
}
