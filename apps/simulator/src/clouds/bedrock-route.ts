import type { SimExchange } from '../protocols/protocol-module';
import type { BedrockError } from './bedrock-errors';
import { verifySigV4 } from './sigv4-verifier';

const BEDROCK_PATH = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/;

export interface BedrockRoute {
  model: string;
  operation: 'converse' | 'converse-stream' | 'invoke' | 'invoke-with-response-stream';
}

export function bedrockRoute(pathname: string): BedrockRoute | undefined {
  const match = BEDROCK_PATH.exec(pathname);
  if (!match) return undefined;
  let model = match[1] ?? '';
  try {
    model = decodeURIComponent(model);
  } catch {
    // A bad escape stays as sent; the model id is echoed, never trusted.
  }
  return { model, operation: match[2] as BedrockRoute['operation'] };
}

/**
 * Bedrock takes a SigV4 signature (service `bedrock`), checked independently here, or a Bedrock
 * API key as a bearer token (`ABSK…`). Undefined when the request may go on.
 */
export function checkBedrockCredentials(exchange: SimExchange): BedrockError | undefined {
  const authorization = exchange.headers['authorization'] ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (bearer) {
    return bearer[1]!.startsWith('ABSK') ? undefined : { status: 403, type: 'UnrecognizedClientException', message: 'Invalid API Key format: Must start with pre-defined prefix' };
  }
  const result = verifySigV4({ method: exchange.method, rawUrl: exchange.req.url ?? '/', headers: exchange.headers, body: exchange.rawBody });
  return result.ok ? undefined : { status: result.status, type: result.errorType, message: result.message };
}
