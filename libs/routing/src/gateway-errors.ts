import { GatewayError } from '@rosetta/canonical';
import { translateTransportError, type AbortWatch } from '@rosetta/providers';

/** Thrown (and swallowed by controllers) when the client went away: there is no one to answer. */
export class ClientAbortedError extends Error {
  constructor() {
    super('client disconnected');
    this.name = 'ClientAbortedError';
  }
}

/** An upstream attempt's failure as a GatewayError; what is not the upstream's is marked local. */
export function toGatewayError(error: unknown, signal?: Pick<AbortWatch, 'aborted' | 'reason'>): GatewayError {
  const translated = translateTransportError(error, signal);
  if (translated instanceof GatewayError) return translated;
  return new GatewayError('api_error', 'Internal error while calling the upstream', { local: true });
}
