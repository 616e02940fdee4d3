/**
 * The admin surface: the admin API, metrics, the dashboard and the API reference. With ADMIN_PORT
 * set it is served only on that port, so an ingress that forwards the main port exposes only the
 * data plane (ARCHITECTURE §8, "Operations").
 */
const ADMIN_PREFIXES = ['/admin', '/metrics', '/dashboard', '/docs'];
const ADMIN_PATHS = new Set(['/openapi.json']);

export function isAdminSurface(path: string): boolean {
  // As the router would read it: Express matches case-insensitively, and %-escapes or doubled
  // slashes must not let `/ADMIN/keys`, `/%61dmin` or `//metrics` past the data-plane port.
  const normalised = normalise(path);
  if (ADMIN_PATHS.has(normalised)) return true;
  return ADMIN_PREFIXES.some((prefix) => normalised === prefix || normalised.startsWith(`${prefix}/`));
}

function normalise(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape is matched as written; no route decodes it either.
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, '/');
}

/**
 * The path of a request target, or undefined when the target is one the gateway refuses: anything
 * but origin form (a path, then an optional query). Absolute form (`GET http://x/admin/keys`) is
 * what a client sends a forward proxy, and no reverse proxy in front of a gateway needs it; Express
 * routes it by its pathname while the port split read the raw target, which let the admin surface
 * answer on the data-plane port. A fragment, whitespace or NBSP/BOM in the target sends Express's
 * URL parser (parseurl) off its fast path into url.parse, which cuts and trims the path where this
 * split would not: refused too, so every target accepted here has exactly the path Express routes.
 */
export function originFormPath(target: string): string | undefined {
  if (target.charCodeAt(0) !== 0x2f) return undefined;
  let path: string | undefined;
  for (let i = 1; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code === 0x3f) path ??= target.slice(0, i);
    else if (UNSAFE_IN_TARGET.has(code)) return undefined;
  }
  return path ?? target;
}

/** The characters that make parseurl hand a target to url.parse (see originFormPath). */
const UNSAFE_IN_TARGET = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20, 0x23, 0xa0, 0xfeff]);

/** Probes answer on both ports: an orchestrator may check either. */
export function isProbe(path: string): boolean {
  return path === '/healthz' || path === '/readyz';
}
