import type { ServerResponse } from 'node:http';
import type { SimError } from '../reply-plan';

/** Bedrock's error types by HTTP status, as its API reference lists them. */
const TYPES: Readonly<Record<number, string>> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

export interface BedrockError {
  status: number;
  type: string;
  message: string;
  headers?: Record<string, string>;
}

export function bedrockErrorType(status: number): string {
  return TYPES[status] ?? (status >= 500 ? 'InternalServerException' : 'ValidationException');
}

/** A scripted error in Bedrock's terms: the type from the status unless the script names an AWS one. */
export function plannedBedrockError(error: SimError): BedrockError {
  const type = error.type?.endsWith('Exception') ? error.type : bedrockErrorType(error.status);
  const headers: Record<string, string> = error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) };
  return { status: error.status, type, message: error.message, headers };
}

/**
 * Bedrock's error answer (restJson1): the type in `x-amzn-errortype` (with Coral's namespace
 * after the colon, as the service sends it), the text in `{"message"}`.
 */
export function sendBedrockError(res: ServerResponse, requestId: string, error: BedrockError): void {
  const text = JSON.stringify({ message: error.message });
  res.writeHead(error.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-amzn-requestid': requestId,
    'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    ...error.headers,
  });
  res.end(text);
}
