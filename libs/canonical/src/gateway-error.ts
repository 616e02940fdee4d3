/**
 * Every failure the gateway reports is a GatewayError: a type, an HTTP status and a message that is
 * safe to show the caller. Each dialect renders it in its own envelope.
 */
export type GatewayErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'budget_exceeded'
  /** A guardrail (ARCHITECTURE §9, Governance) blocked the prompt or the answer. */
  | 'guardrail_violation'
  | 'model_registry_error'
  | 'not_found_error'
  | 'request_too_large'
  | 'rate_limit_error'
  | 'api_error'
  | 'overloaded_error'
  | 'configuration_error'
  | 'upstream_error';

/**
 * The code of an error that ended a request because the gateway was forced to stop; the ledger
 * records it as the row's error type (a client never caused it).
 */
export const SERVER_SHUTDOWN = 'server_shutdown';

const DEFAULT_STATUS: Record<GatewayErrorType, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  budget_exceeded: 402,
  guardrail_violation: 400,
  model_registry_error: 404,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 503,
  configuration_error: 503,
  upstream_error: 502,
};

export interface GatewayErrorOptions {
  status?: number;
  /** The request field at fault, e.g. `messages[2].content`. */
  param?: string;
  /** A machine-readable code (OpenAI `code`). */
  code?: string;
  /** Milliseconds the caller should wait before retrying. */
  retryAfterMs?: number;
  /** Whether an executor may try another attempt after this error. */
  retryable?: boolean;
  headers?: Record<string, string>;
  /**
   * The failure happened in the gateway itself (encoding a request, a bug), not at an upstream:
   * it never counts against an endpoint's health and is never retried elsewhere.
   */
  local?: boolean;
}

export class GatewayError extends Error {
  readonly type: GatewayErrorType;
  readonly status: number;
  readonly param?: string;
  readonly code?: string;
  readonly retryAfterMs?: number;
  readonly retryable: boolean;
  readonly headers?: Record<string, string>;
  readonly local: boolean;

  constructor(type: GatewayErrorType, message: string, options: GatewayErrorOptions = {}) {
    super(message);
    this.name = 'GatewayError';
    this.type = type;
    this.status = options.status ?? DEFAULT_STATUS[type];
    this.param = options.param;
    this.code = options.code;
    this.retryAfterMs = options.retryAfterMs;
    this.retryable = options.retryable ?? false;
    this.headers = options.headers;
    this.local = options.local ?? false;
  }

  static invalidRequest(message: string, param?: string): GatewayError {
    return new GatewayError('invalid_request_error', message, { param });
  }

  static isGatewayError(value: unknown): value is GatewayError {
    return value instanceof GatewayError;
  }
}
