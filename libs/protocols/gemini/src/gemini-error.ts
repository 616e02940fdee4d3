import type { GatewayError } from '@rosetta/canonical';

const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiRpcStatus(httpStatus: number): string {
  return RPC_STATUS[httpStatus] ?? (httpStatus >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/** Google's envelope: `{error:{code, message, status}}`, plus our type and request_id. */
export function renderGeminiError(error: GatewayError, requestId: string): Record<string, unknown> {
  return {
    error: { code: error.status, message: error.message, status: geminiRpcStatus(error.status), type: error.type },
    request_id: requestId,
  };
}
