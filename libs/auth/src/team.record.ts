import type { Budget } from './api-key.record';

/** A team: keys charged together, with an optional dollar budget of its own. */
export interface TeamRecord {
  id: string;
  name: string;
  budget: Budget | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TeamChange {
  name?: string;
  /** null removes the budget. */
  budget?: Budget | null;
}
