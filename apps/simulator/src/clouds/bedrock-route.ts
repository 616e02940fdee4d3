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

/** Cross-region inference profiles carry a geography before the provider (`us.anthropic.…`). */
const INFERENCE_PROFILE = /^(us|eu|apac|jp|au|ca|us-gov|global)\./;

/** IAM's refusal: the action the operation needs, on the model or inference profile it names. */
function accessDenied(route: BedrockRoute, region: string, accessKeyId: string): BedrockError {
  const action = route.operation.endsWith('stream') ? 'bedrock:InvokeModelWithResponseStream' : 'bedrock:InvokeModel';
  const resource = INFERENCE_PROFILE.test(route.model) ? `arn:aws:bedrock:${region}:000000000000:inference-profile/${route.model}` : `arn:aws:bedrock:${region}::foundation-model/${route.model}`;
  const message = `User: arn:aws:iam::000000000000:user/${accessKeyId} is not authorized to perform: ${action} on resource: ${resource} because no identity-based policy allows the ${action} action`;
  return { status: 403, type: 'AccessDeniedException', message };
}

/**
 * Bedrock takes a SigV4 signature (service `bedrock`), checked independently here, or a Bedrock
 * API key as a bearer token (`ABSK…`). A signature that verifies may still be refused by IAM
 * (keys from `simAwsDeniedCredentials`). Undefined when the request may go on.
 */
export function checkBedrockCredentials(exchange: SimExchange, route: BedrockRoute): BedrockError | undefined {
  const authorization = exchange.headers['authorization'] ?? '';
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (bearer) {
    return bearer[1]!.startsWith('ABSK') ? undefined : { status: 403, type: 'UnrecognizedClientException', message: 'Invalid API Key format: Must start with pre-defined prefix' };
  }
  const result = verifySigV4({ method: exchange.method, rawUrl: exchange.req.url ?? '/', headers: exchange.headers, body: exchange.rawBody });
  if (!result.ok) return { status: result.status, type: result.errorType, message: result.message };
  return result.denied ? accessDenied(route, result.region, result.accessKeyId) : undefined;
}
