/**
 * The dashboard's settings: how long a sign-in lasts, and single sign-on through an OpenID
 * Connect provider when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are all set. Validated
 * at start like every setting: a bad value stops the process naming the variable.
 */
import { ConfigError } from './config-error';

/** Where the identity provider sends the browser back; served under the admin surface. */
export const OIDC_CALLBACK_PATH = '/admin/session/sso/callback';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Members of any of these groups sign in as admin (may change things). */
  adminGroups: string[];
  /** Members of any of these groups (and none of the admin ones) sign in as viewer (read only). */
  viewerGroups: string[];
  /** The callback URL registered with the provider; unset: this gateway's own URL as the browser reached it. */
  redirectUri?: string;
  scopes: string[];
  /** The ID token / userinfo claim that lists a user's groups. */
  groupsClaim: string;
}

export interface DashboardConfig {
  /** How long a dashboard session lasts from sign-in (DASHBOARD_SESSION_HOURS). */
  sessionTtlMs: number;
  oidc?: OidcConfig;
}

type Env = Record<string, string | undefined>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function value(env: Env, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw ? raw : undefined;
}

function list(env: Env, name: string): string[] {
  return (value(env, name) ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** An http(s) URL; plain http only on loopback (a test or a local provider), never across a network. */
function secureUrl(env: Env, name: string): string | undefined {
  const raw = value(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got '${raw}'`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new ConfigError(name, `must use https (http only on 127.0.0.1 or localhost), got '${raw}'`);
  }
  return raw;
}

function sessionHours(env: Env): number {
  const raw = value(env, 'DASHBOARD_SESSION_HOURS');
  if (raw === undefined) return 12;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 720) {
    throw new ConfigError('DASHBOARD_SESSION_HOURS', `must be a whole number of hours from 1 to 720, got '${raw}'`);
  }
  return Number(raw);
}

function oidcConfig(env: Env): OidcConfig | undefined {
  const names = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
  const given = names.filter((name) => value(env, name) !== undefined);
  if (given.length === 0) {
    for (const name of ['OIDC_ADMIN_GROUPS', 'OIDC_VIEWER_GROUPS', 'OIDC_REDIRECT_URI', 'OIDC_SCOPES', 'OIDC_GROUPS_CLAIM']) {
      if (value(env, name) !== undefined) throw new ConfigError(name, 'is set but single sign-on is off: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET too');
    }
    return undefined;
  }
  const missing = names.find((name) => value(env, name) === undefined);
  if (missing) throw new ConfigError(missing, `is required for single sign-on (${given.join(', ')} ${given.length === 1 ? 'is' : 'are'} set)`);
  const adminGroups = list(env, 'OIDC_ADMIN_GROUPS');
  const viewerGroups = list(env, 'OIDC_VIEWER_GROUPS');
  if (adminGroups.length === 0 && viewerGroups.length === 0) {
    throw new ConfigError('OIDC_ADMIN_GROUPS', 'set OIDC_ADMIN_GROUPS and/or OIDC_VIEWER_GROUPS (comma-separated group names): without them nobody could sign in with SSO');
  }
  const redirectUri = secureUrl(env, 'OIDC_REDIRECT_URI');
  if (redirectUri !== undefined && !new URL(redirectUri).pathname.endsWith(OIDC_CALLBACK_PATH)) {
    throw new ConfigError('OIDC_REDIRECT_URI', `must end with ${OIDC_CALLBACK_PATH}, got '${redirectUri}'`);
  }
  const scopes = value(env, 'OIDC_SCOPES')?.split(/[\s,]+/).filter(Boolean) ?? ['openid', 'profile', 'email'];
  if (!scopes.includes('openid')) throw new ConfigError('OIDC_SCOPES', `must include openid, got '${scopes.join(' ')}'`);
  const groupsClaim = value(env, 'OIDC_GROUPS_CLAIM') ?? 'groups';
  return {
    issuer: secureUrl(env, 'OIDC_ISSUER')!,
    clientId: value(env, 'OIDC_CLIENT_ID')!,
    clientSecret: value(env, 'OIDC_CLIENT_SECRET')!,
    adminGroups,
    viewerGroups,
    redirectUri,
    scopes,
    groupsClaim,
  };
}

export function dashboardConfig(env: Env): DashboardConfig {
  return { sessionTtlMs: sessionHours(env) * 3_600_000, oidc: oidcConfig(env) };
}
