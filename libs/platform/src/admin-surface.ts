/**
 * The admin surface: the admin API, metrics, the dashboard and the API reference. With ADMIN_PORT
 * set it is served only on that port, so an ingress that forwards the main port exposes only the
 * data plane (ARCHITECTURE §8, "Operations").
 */
const ADMIN_PREFIXES = ['/admin', '/metrics', '/dashboard', '/docs'];
const ADMIN_PATHS = new Set(['/openapi.json']);

export function isAdminSurface(path: string): boolean {
  if (ADMIN_PATHS.has(path)) return true;
  return ADMIN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Probes answer on both ports: an orchestrator may check either. */
export function isProbe(path: string): boolean {
  return path === '/healthz' || path === '/readyz';
}
