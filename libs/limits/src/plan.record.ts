/** A plan tier: requests and tokens per minute; null means unlimited. */
export interface PlanRecord {
  name: string;
  rpm: number | null;
  tpm: number | null;
}

export const PLAN_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
