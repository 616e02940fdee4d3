import { ConfigError } from './config-error';
import { dashboardConfig } from './dashboard-config';

const OIDC = { OIDC_ISSUER: 'https://login.example.com/realms/acme', OIDC_CLIENT_ID: 'rosetta', OIDC_CLIENT_SECRET: 's3cret', OIDC_ADMIN_GROUPS: 'platform, sre', OIDC_VIEWER_GROUPS: 'eng' };

function refusal(env: Record<string, string>): string {
  try {
    dashboardConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('dashboard configuration', () => {
  it('defaults to 12-hour sessions and no single sign-on', () => {
    expect(dashboardConfig({})).toEqual({ sessionTtlMs: 12 * 3_600_000, oidc: undefined });
  });

  it('reads the OIDC settings, groups as comma lists, with default scopes and claim', () => {
    expect(dashboardConfig({ ...OIDC, DASHBOARD_SESSION_HOURS: '8' })).toEqual({
      sessionTtlMs: 8 * 3_600_000,
      oidc: { issuer: OIDC.OIDC_ISSUER, clientId: 'rosetta', clientSecret: 's3cret', adminGroups: ['platform', 'sre'], viewerGroups: ['eng'], redirectUri: undefined, scopes: ['openid', 'profile', 'email'], groupsClaim: 'groups' },
    });
    expect(dashboardConfig({ ...OIDC, OIDC_SCOPES: 'openid groups', OIDC_GROUPS_CLAIM: 'roles', OIDC_REDIRECT_URI: 'https://gw.example.com/admin/session/sso/callback' }).oidc).toMatchObject({
      scopes: ['openid', 'groups'],
      groupsClaim: 'roles',
      redirectUri: 'https://gw.example.com/admin/session/sso/callback',
    });
  });

  it.each<[Record<string, string>, string]>([
    [{ DASHBOARD_SESSION_HOURS: '0' }, "DASHBOARD_SESSION_HOURS: must be a whole number of hours from 1 to 720, got '0'"],
    [{ DASHBOARD_SESSION_HOURS: 'a day' }, "DASHBOARD_SESSION_HOURS: must be a whole number of hours from 1 to 720, got 'a day'"],
    [{ OIDC_ISSUER: OIDC.OIDC_ISSUER, OIDC_CLIENT_ID: 'rosetta' }, 'OIDC_CLIENT_SECRET: is required for single sign-on (OIDC_ISSUER, OIDC_CLIENT_ID are set)'],
    [{ OIDC_ADMIN_GROUPS: 'platform' }, 'OIDC_ADMIN_GROUPS: is set but single sign-on is off: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too'],
    [{ ...OIDC, OIDC_ADMIN_GROUPS: ' , ', OIDC_VIEWER_GROUPS: '' }, 'OIDC_ADMIN_GROUPS: set OIDC_ADMIN_GROUPS and/or OIDC_VIEWER_GROUPS (comma-separated group names): without them nobody could sign in with SSO'],
    [{ ...OIDC, OIDC_ISSUER: 'http://login.example.com' }, "OIDC_ISSUER: must use https (http only on 127.0.0.1 or localhost), got 'http://login.example.com'"],
    [{ ...OIDC, OIDC_ISSUER: 'not a url' }, "OIDC_ISSUER: must be a URL, got 'not a url'"],
    [{ ...OIDC, OIDC_REDIRECT_URI: 'https://gw.example.com/callback' }, "OIDC_REDIRECT_URI: must end with /admin/session/sso/callback, got 'https://gw.example.com/callback'"],
    [{ ...OIDC, OIDC_SCOPES: 'profile email' }, "OIDC_SCOPES: must include openid, got 'profile email'"],
  ])('refuses %j naming the variable', (env, message) => {
    expect(refusal(env)).toBe(message);
  });

  it('allows a plain-http issuer on loopback only (a provider on the same machine, or a test)', () => {
    expect(dashboardConfig({ ...OIDC, OIDC_ISSUER: 'http://127.0.0.1:9000' }).oidc?.issuer).toBe('http://127.0.0.1:9000');
  });
});
