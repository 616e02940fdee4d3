import type { ServerResponse } from 'node:http';
import type { ReplyPlan, SimError } from '../reply-plan';

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

/** The exceptions each stream's event union declares (ConverseStreamOutput, ResponseStream). */
const STREAM_EXCEPTIONS: Readonly<Record<'converse-stream' | 'invoke-with-response-stream', readonly string[]>> = {
  'converse-stream': ['internalServerException', 'modelStreamErrorException', 'validationException', 'throttlingException', 'serviceUnavailableException'],
  'invoke-with-response-stream': ['internalServerException', 'modelStreamErrorException', 'validationException', 'throttlingException', 'modelTimeoutException', 'serviceUnavailableException'],
};

export interface StreamException {
  /** The `:exception-type` header, e.g. `throttlingException`. */
  type: string;
  message: string;
}

/**
 * A failure inside a stream: with a scripted `error` beside `streamErrorAfterChunks`, that error
 * as the stream's exception of the same name (ThrottlingException → `throttlingException`); an
 * exception the stream does not declare, or no error, is `modelStreamErrorException`.
 */
export function streamException(error: SimError | undefined, operation: 'converse-stream' | 'invoke-with-response-stream'): StreamException {
  if (!error) return { type: 'modelStreamErrorException', message: 'The model stream was interrupted; try the request again.' };
  const name = plannedBedrockError(error).type;
  const type = `${name.charAt(0).toLowerCase()}${name.slice(1)}`;
  return { type: STREAM_EXCEPTIONS[operation].includes(type) ? type : 'modelStreamErrorException', message: error.message };
}

/** The scripted error to answer before any header; undefined when there is none, or when a stream carries it as its exception. */
export function upfrontError(plan: ReplyPlan, stream: boolean): SimError | undefined {
  return stream && plan.streamErrorAfterChunks !== undefined ? undefined : plan.error;
}
