import { isAdminSurface, isProbe, originFormPath } from './admin-surface';

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

describe('originFormPath', () => {
  it('reads the path of an origin-form target as Express does', () => {
    expect(['/admin/keys', '/v1/models?key=a?b', '/', '//metrics?x'].map(originFormPath)).toEqual(['/admin/keys', '/v1/models', '/', '//metrics']);
  });

  it.each(['http://x/admin/keys', 'https://x:1/metrics', '*', '', 'admin/keys', '/metrics#x', '/metrics\u00a0', '/metrics\ufeff', '/a b', '/a\tb', '/x?y#z'])('refuses %j', (target) => {
    expect(originFormPath(target)).toBeUndefined();
  });
});
