/**
 * The client dialects, by id. Each protocol library that is a client dialect adds its own id
 * from its `*.dialect.ts` (declaration merging), so a new dialect touches no file outside its
 * folder but the list that registers it.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DialectIds {}

/**
 * The upstream protocols, by id (`protocol` in providers); each protocol library adds its own from
 * its `*.upstream.ts`, as for dialects.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface UpstreamProtocolIds {}

/** A client dialect: the wire format a caller speaks to Rosetta (its routes, bodies, streams, errors). */
export type DialectId = keyof DialectIds & string;

/**
 * An upstream protocol: the wire format Rosetta speaks to a provider. A dialect and an upstream
 * protocol with the same id are the same wire format: a request between them can take the
 * same-protocol fast path.
 */
export type UpstreamProtocolId = keyof UpstreamProtocolIds & string;
