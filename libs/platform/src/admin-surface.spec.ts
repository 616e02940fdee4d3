import { isAdminSurface, isProbe } from './admin-surface';

describe('isAdminSurface', () => {
  it.each(['/admin', '/admin/keys', '/metrics', '/docs', '/dashboard/keys', '/openapi.json'])('%s is the admin surface', (path) => {
    expect(isAdminSurface(path)).toBe(true);
  });

  it.each(['/ADMIN/keys', '/Metrics/', '/METRICS', '/%61dmin/keys', '//metrics', '/Docs', '/OPENAPI.JSON'])('%s too, as the case-insensitive router would read it', (path) => {
    expect(isAdminSurface(path)).toBe(true);
  });

  it.each(['/v1/chat/completions', '/v1/models', '/administrator', '/metricsx', '/v1/admin', '/healthz', '/%ZZadmin'])('%s is not', (path) => {
    expect(isAdminSurface(path)).toBe(false);
  });

  it('leaves the probes to both ports', () => {
    expect(isProbe('/healthz')).toBe(true);
    expect(isProbe('/readyz')).toBe(true);
    expect(isProbe('/metrics')).toBe(false);
  });
});
