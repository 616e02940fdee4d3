import { type PiiKind, type SecretKind } from './guardrail-kinds';

/** A guardrail check as an operator configures it on a plan, team or key (ARCHITECTURE §9, Governance). */

export const CHECK_TYPES = ['pii', 'secrets', 'regex', 'webhook', 'model'] as const;
export type GuardrailCheckType = (typeof CHECK_TYPES)[number];

export const CHECK_STAGES = ['input', 'output', 'both'] as const;
export type GuardrailOn = (typeof CHECK_STAGES)[number];
/** Where a scan runs: the request going upstream, or the answer going to the client. */
export type GuardrailStage = 'input' | 'output';

export const CHECK_ACTIONS = ['block', 'redact', 'log'] as const;
export type GuardrailAction = (typeof CHECK_ACTIONS)[number];

interface CheckCommon {
  on: GuardrailOn;
  action: GuardrailAction;
}

export interface PiiCheck extends CheckCommon {
  check: 'pii';
  /** Absent: every PII kind, including kinds added later. */
  kinds?: PiiKind[];
}

export interface SecretsCheck extends CheckCommon {
  check: 'secrets';
  kinds?: SecretKind[];
}

export interface RegexPattern {
  pattern: string;
  /** The kind its matches are reported and redacted as; `regex` when absent. */
  name?: string;
}

export interface RegexCheck extends CheckCommon {
  check: 'regex';
  patterns: RegexPattern[];
  ignoreCase: boolean;
}

/** Parsed and validated here; run by the data plane (it needs HTTP and the SSRF guard). */
export interface WebhookCheck extends CheckCommon {
  check: 'webhook';
  url: string;
  timeoutMs: number;
  fail: 'open' | 'closed';
}

/** Parsed and validated here; run by the data plane (it needs the registry and a provider). */
export interface ModelCheck extends CheckCommon {
  check: 'model';
  model: string;
  categories?: string[];
}

export type GuardrailCheck = PiiCheck | SecretsCheck | RegexCheck | WebhookCheck | ModelCheck;

/** Whether a check set `on` a stage runs at it. */
export function runsAt(on: GuardrailOn, stage: GuardrailStage): boolean {
  return on === 'both' || on === stage;
}
