import type { GuardrailRecord } from '@rosetta/guardrails';

/** A request a guardrail blocked: what an alert (`guardrail.blocked`) counts. Never the text. */
export interface GuardrailBlockedEvent {
  requestId: string;
  keyId?: string;
  teamId?: string;
  verdict: GuardrailRecord;
}

/**
 * Told of every block, on the request's path: a listener must return at once (count, queue) and
 * never throw into the request. Bind one to GUARDRAIL_BLOCK_LISTENER, or call GuardrailService.onBlocked.
 */
export type GuardrailBlockListener = (event: GuardrailBlockedEvent) => void;

export const GUARDRAIL_BLOCK_LISTENER = Symbol('GUARDRAIL_BLOCK_LISTENER');
