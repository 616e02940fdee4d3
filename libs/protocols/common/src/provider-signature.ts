import type { ProviderSignature, UpstreamProtocolId } from '@rosetta/canonical';

/**
 * Thinking signatures are only valid for the provider family that issued them. When a signature
 * has to travel through a client of another dialect (a Gemini thought signature shown to an
 * Anthropic client, say), it is wrapped with its origin so that, when the client sends the turn
 * back, the gateway knows where it came from and never hands it to the wrong provider.
 *
 * Native signatures pass through untouched: a client talking to its own provider's protocol sees
 * exactly what that provider produced. `native` is the upstream protocol whose signatures the
 * wire format carries as they are — its own id when it is also an upstream protocol; a dialect that
 * is no upstream protocol has none of its own and names the one it takes its signatures from.
 */
const PREFIX = 'rosetta-sig.';

/**
 * An upstream protocol id as a wrapped signature names it. Any well-formed id is taken: it is only
 * ever compared with the id of the upstream about to be called, so one no upstream has is inert.
 */
function protocolId(text: string | undefined): UpstreamProtocolId | undefined {
  return text !== undefined && /^[a-z][a-z0-9-]{0,31}$/.test(text) ? (text as UpstreamProtocolId) : undefined;
}

export function wrapSignature(signature: ProviderSignature, native: UpstreamProtocolId): string {
  if (signature.protocol === native) return signature.value;
  return `${PREFIX}${signature.protocol}.${Buffer.from(signature.value, 'utf8').toString('base64url')}`;
}

export function unwrapSignature(value: string, native: UpstreamProtocolId): ProviderSignature {
  if (value.startsWith(PREFIX)) {
    const rest = value.slice(PREFIX.length);
    const dot = rest.indexOf('.');
    const protocol = dot > 0 ? protocolId(rest.slice(0, dot)) : undefined;
    if (protocol) return { protocol, value: Buffer.from(rest.slice(dot + 1), 'base64url').toString('utf8') };
  }
  return { protocol: native, value };
}

/**
 * A signature that belongs on a tool call (Gemini signs functionCall parts) travelling through a
 * dialect whose tool calls have no signature field: it rides in a reasoning slot instead, marked
 * so the decoder puts it back on the call.
 */
const CALL = 'call.';

export function wrapCallSignature(signature: ProviderSignature): string {
  return `${PREFIX}${signature.protocol}.${CALL}${Buffer.from(signature.value, 'utf8').toString('base64url')}`;
}

/** The call signature carried by `value`, or undefined when `value` is not one. */
export function unwrapCallSignature(value: string): ProviderSignature | undefined {
  if (!value.startsWith(PREFIX)) return undefined;
  const [name, marker, encoded] = value.slice(PREFIX.length).split('.', 3);
  const protocol = protocolId(name);
  if (`${marker}.` !== CALL || encoded === undefined || !protocol) return undefined;
  return { protocol, value: Buffer.from(encoded, 'base64url').toString('utf8') };
}

/** The signature to send to an upstream of `protocol`, or undefined when it belongs elsewhere. */
export function signatureFor(signature: ProviderSignature | undefined, protocol: UpstreamProtocolId): string | undefined {
  return signature?.protocol === protocol ? signature.value : undefined;
}
