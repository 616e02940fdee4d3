/** A key as the rest of the gateway sees it: plain data, never the ORM entity, never the secret. */
export interface ApiKeyRecord {
  id: string;
  lookupId: string;
  name: string;
  plan: string;
  rpm: number | null;
  tpm: number | null;
  /** Default cost/quality knob for rosetta/auto (null: the router's calibrated default). */
  routeKnob: number | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** The stored row for verification: the record plus the secret's hash. */
export interface StoredApiKey extends ApiKeyRecord {
  secretHash: string;
}

export interface NewApiKey {
  id: string;
  lookupId: string;
  secretHash: string;
  name: string;
  plan: string;
  rpm: number | null;
  tpm: number | null;
  routeKnob: number | null;
  expiresAt: Date | null;
}
