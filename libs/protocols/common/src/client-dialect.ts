import type { DialectId, GatewayError } from '@rosetta/canonical';

/** Where a dialect's clients send their API key, besides `x-api-key` and `Authorization: Bearer`. */
export interface CredentialSources {
  headers?: readonly string[];
  query?: readonly string[];
}

/**
 * A client dialect, described once by its protocol library: what the data plane needs to answer
 * its clients the way their SDKs expect, before and around the chat codec. Listed once in
 * `@rosetta/protocols/dialects`.
 */
export interface ClientDialect {
  readonly id: DialectId;
  /** Whether a path is this dialect's, so errors there (auth, an unknown route) use its envelope. */
  ownsPath(path: string): boolean;
  /** Extra places its clients put the key (Google's SDK: `x-goog-api-key`, `?key=`). */
  readonly credential: CredentialSources;
  /** The error body its SDKs parse. */
  renderError(error: GatewayError, requestId: string): Record<string, unknown>;
}
