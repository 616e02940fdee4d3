import { GatewayError } from '@rosetta/canonical';

/** The parts of an upstream request a credential may need to authenticate it. */
export interface SignableRequest {
  method: string;
  url: string;
  headers: Readonly<Record<string, string>>;
  /** The exact bytes sent (SigV4 signs their hash). */
  body: string;
}

/**
 * How a provider's calls are authenticated when a static key is not enough: a bearer token from
 * a cloud identity service, or a signature over the request. Returns the headers to add; never
 * logged, never in an error.
 */
export interface UpstreamCredential {
  /** e.g. `google application default credentials`, for logs and errors (never a secret). */
  readonly describe: string;
  headers(request: SignableRequest): Promise<Record<string, string>>;
  /** The upstream refused what was sent (401, expired token): drop any cached token. */
  invalidate?(): void;
}

const MAX_CAUSE = 300;

/**
 * A credential that could not be obtained (expired, denied, token service unreachable): an
 * upstream failure of that provider — it counts against its health and falls back like any
 * other — naming the provider and the cause, with anything that looks like a token removed.
 */
export function credentialFailure(provider: string, credential: string, cause: unknown): GatewayError {
  const text = (cause instanceof Error ? cause.message : String(cause))
    .replace(/(bearer\s+|token["']?\s*[=:]\s*["']?|secret["']?\s*[=:]\s*["']?|signature=)[^\s"',]+/gi, '$1[redacted]')
    .replace(/\s+/g, ' ')
    .slice(0, MAX_CAUSE);
  return new GatewayError('upstream_error', `Upstream service error: provider '${provider}' could not get credentials (${credential}): ${text}`, {
    status: 502,
    retryable: true,
    code: 'upstream_credentials',
  });
}
