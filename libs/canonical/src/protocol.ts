/**
 * A client dialect: the wire format a caller speaks to Rosetta (its routes, bodies, streams and
 * error envelopes). Each is described once, by its protocol library's dialect descriptor.
 */
export type DialectId = 'openai' | 'anthropic' | 'gemini';

/**
 * An upstream protocol: the wire format Rosetta speaks to a provider (`protocol` in providers).
 * Each is described once, by its protocol library's UpstreamProtocol descriptor. A dialect and an
 * upstream protocol with the same id are the same wire format: a request between them can take
 * the same-protocol fast path.
 */
export type UpstreamProtocolId = 'openai' | 'anthropic' | 'gemini';

/** Whether a client dialect and an upstream protocol are one wire format. */
export function sameWireFormat(dialect: DialectId | undefined, protocol: UpstreamProtocolId): boolean {
  return dialect === protocol;
}
