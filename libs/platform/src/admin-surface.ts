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

/** Probes answer on both ports: an orchestrator may check either. */
export function isProbe(path: string): boolean {
  return path === '/healthz' || path === '/readyz';
}
