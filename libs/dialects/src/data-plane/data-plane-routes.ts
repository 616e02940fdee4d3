import type { DialectId } from '@rosetta/canonical';
import type { DialectRoute } from '@rosetta/protocols/common';
import { DIALECTS } from '@rosetta/protocols/dialects';

/** What a data-plane route runs: a dialect operation, or one of the gateway's own routes. */
export type HandlerName = DialectRoute['operation'] | 'models' | 'model' | 'key' | 'route';

/**
 * One client-facing route. `pattern` is its OpenAPI path (the document and the drift test read
 * it); a pattern ending in `{name}` takes the rest of the path, raw (percent-encoded as it came),
 * as the route's `tail`.
 */
export interface DataPlaneRoute {
  method: 'GET' | 'POST' | 'DELETE';
  pattern: string;
  /** The dialect its errors are written in and its credential is looked for in. */
  dialect: DialectId;
  handler: HandlerName;
}

/** The gateway's own client routes, in dialect A's envelope (the model list is the shape every SDK reads). */
const GATEWAY_ROUTES: readonly DataPlaneRoute[] = [
  { method: 'GET', pattern: '/v1/models', dialect: 'openai', handler: 'models' },
  { method: 'GET', pattern: '/v1/models/{id}', dialect: 'openai', handler: 'model' },
  { method: 'GET', pattern: '/v1/key', dialect: 'openai', handler: 'key' },
  { method: 'POST', pattern: '/v1/route', dialect: 'openai', handler: 'route' },
];

/** Chat first: matching is in table order and the chat routes carry the traffic. */
const ORDER: Record<HandlerName, number> = {
  chat: 0,
  model_call: 1,
  embed: 2,
  count_tokens: 2,
  list_models: 3,
  get_model: 4,
  stored_input_items: 4,
  stored_get: 4,
  stored_delete: 4,
  models: 5,
  model: 5,
  key: 5,
  route: 5,
};

/**
 * Every client-facing route, served by the data plane (data-plane.service.ts) and nowhere else:
 * each dialect's own routes, from its descriptor (DIALECTS), then the gateway's. Nest keeps the
 * admin API, docs, metrics and probes.
 */
export const DATA_PLANE_ROUTES: readonly DataPlaneRoute[] = [
  ...DIALECTS.flatMap((d) => d.routes.map((r): DataPlaneRoute => ({ method: r.method, pattern: r.pattern, dialect: d.id, handler: r.operation }))),
  ...GATEWAY_ROUTES,
]
  .map((route, index) => ({ route, index }))
  .sort((a, b) => ORDER[a.route.handler] - ORDER[b.route.handler] || a.index - b.index)
  .map(({ route }) => route);

export interface RouteMatch {
  route: DataPlaneRoute;
  /** The path between a wildcard pattern's fixed prefix and suffix, raw; '' for exact routes. */
  tail: string;
}

interface CompiledRoute {
  route: DataPlaneRoute;
  /** The fixed part, lower-case: the whole path, or the prefix before the wildcard (with its slash). */
  fixed: string;
  /** What follows the wildcard (`/input_items`), lower-case; '' when it takes the rest of the path. */
  suffix: string;
  wildcard: boolean;
}

const COMPILED: readonly CompiledRoute[] = DATA_PLANE_ROUTES.map((route) => {
  const brace = route.pattern.indexOf('{');
  const close = route.pattern.indexOf('}');
  return {
    route,
    fixed: (brace < 0 ? route.pattern : route.pattern.slice(0, brace)).toLowerCase(),
    suffix: brace < 0 ? '' : route.pattern.slice(close + 1).toLowerCase(),
    wildcard: brace >= 0,
  };
});

/**
 * The route a request is for, or undefined (Nest then answers: admin, probes, or a 404). Matching
 * is as Express's defaults were: the fixed part in any letter case, one trailing slash ignored; a
 * wildcard needs a non-empty rest. HEAD is served as GET.
 */
export function matchDataPlaneRoute(method: string, path: string): RouteMatch | undefined {
  const verb = method === 'HEAD' ? 'GET' : method;
  if (verb !== 'GET' && verb !== 'POST' && verb !== 'DELETE') return undefined;
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  let lower: string | undefined;
  for (const candidate of COMPILED) {
    if (candidate.route.method !== verb) continue;
    if (!candidate.wildcard) {
      if (trimmed === candidate.fixed || (lower ??= trimmed.toLowerCase()) === candidate.fixed) return { route: candidate.route, tail: '' };
      continue;
    }
    const { fixed, suffix } = candidate;
    if (trimmed.length <= fixed.length + suffix.length) continue;
    if (!(trimmed.startsWith(fixed) || (lower ??= trimmed.toLowerCase()).startsWith(fixed))) continue;
    if (suffix === '') return { route: candidate.route, tail: trimmed.slice(fixed.length) };
    // A wildcard with a suffix takes one path segment: `/v1/responses/{id}/input_items`.
    const tail = trimmed.slice(fixed.length, trimmed.length - suffix.length);
    if (!tail.includes('/') && (lower ??= trimmed.toLowerCase()).endsWith(suffix)) return { route: candidate.route, tail };
  }
  return undefined;
}
