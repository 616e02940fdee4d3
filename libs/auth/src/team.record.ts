import type { GuardrailCheck } from '@rosetta/guardrails';
import type { Budget } from './api-key.record';

/** A team: keys charged together, with an optional dollar budget of its own. */
export interface TeamRecord {
  id: string;
  name: string;
  budget: Budget | null;
  /** Guardrail checks every key of the team is held to (with its own and its plan's); null: none. */
  guardrails?: GuardrailCheck[] | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TeamChange {
  name?: string;
  /** null removes the budget. */
  budget?: Budget | null;
  /** null removes the team's checks. */
  guardrails?: GuardrailCheck[] | null;
}
