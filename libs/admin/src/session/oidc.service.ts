import { Inject, Injectable } from '@nestjs/common';
import type { AdminRole, LoginFlow } from '@rosetta/auth';
import { APP_LOGGER, ROSETTA_CONFIG, type AppLogger, type OidcConfig, type RosettaConfig } from '@rosetta/platform';
import type * as OpenIdClient from 'openid-client';

type Client = typeof OpenIdClient;

/** A user the identity provider vouched for, with the role their groups give (null: none). */
export interface SsoUser {
  name: string;
  subject: string;
  groups: string[];
  role: AdminRole | null;
}

/** A sign-on that cannot finish, with a message fit for the person at the browser. */
export class SsoError extends Error {}

/**
 * OpenID Connect single sign-on with `openid-client`: the authorization code flow with PKCE
 * (S256), state and nonce, the client authenticated with its secret. The provider's metadata is
 * discovered on the first sign-on (and again after a failure), so a provider that is down at
 * start does not stop the gateway. Roles come from the groups claim of the ID token, or of the
 * userinfo answer when the ID token has none: OIDC_ADMIN_GROUPS → admin, OIDC_VIEWER_GROUPS → viewer.
 */
@Injectable()
export class OidcService {
  private readonly config?: OidcConfig;
  private discovered?: Promise<{ client: Client; configuration: OpenIdClient.Configuration }>;

  constructor(
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
    @Inject(APP_LOGGER) private readonly logger: AppLogger,
  ) {
    this.config = config.dashboard.oidc;
  }

  get enabled(): boolean {
    return this.config !== undefined;
  }

  /** The callback URL: OIDC_REDIRECT_URI, else this gateway as the browser reached it. */
  redirectUri(origin: string): string {
    return this.config?.redirectUri ?? `${origin}/admin/session/sso/callback`;
  }

  /** Where to send the browser, and what the callback will need to check the answer. */
  async begin(redirectUri: string): Promise<{ url: string; flow: LoginFlow }> {
    const { client, configuration } = await this.discover();
    const codeVerifier = client.randomPKCECodeVerifier();
    const flow: LoginFlow = { state: client.randomState(), nonce: client.randomNonce(), codeVerifier, redirectUri };
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: redirectUri,
      scope: this.settings().scopes.join(' '),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    return { url: url.href, flow };
  }

  /** Exchanges the code (checking state, nonce, PKCE and the ID token) and maps the user's groups to a role. */
  async finish(query: Record<string, string>, flow: LoginFlow): Promise<SsoUser> {
    const { client, configuration } = await this.discover();
    const callback = new URL(flow.redirectUri);
    for (const [name, value] of Object.entries(query)) callback.searchParams.set(name, value);
    let tokens: Awaited<ReturnType<Client['authorizationCodeGrant']>>;
    try {
      tokens = await client.authorizationCodeGrant(configuration, callback, { pkceCodeVerifier: flow.codeVerifier, expectedState: flow.state, expectedNonce: flow.nonce, idTokenExpected: true });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn({ err: reason }, 'single sign-on: the identity provider answer was refused');
      throw new SsoError(`The identity provider's answer could not be accepted (${reason.slice(0, 200)})`);
    }
    const idClaims: Record<string, unknown> = tokens.claims() ?? {};
    const subject = String(idClaims['sub']);
    const claimName = this.settings().groupsClaim;
    // Many providers put only `sub` in the ID token and the rest behind userinfo: ask when needed.
    let claims = idClaims;
    if ((claims[claimName] === undefined || claims['email'] === undefined) && tokens.access_token && configuration.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, subject).catch(() => undefined);
      claims = { ...(info ?? {}), ...idClaims };
    }
    const groups = groupsOf(claims[claimName]);
    const name = [claims['email'], claims['preferred_username'], claims['name']].find((v): v is string => typeof v === 'string' && v.length > 0) ?? subject;
    const list = groups ?? [];
    return { name: name.slice(0, 200), subject, groups: list, role: this.roleOf(list) };
  }

  roleOf(groups: readonly string[]): AdminRole | null {
    const { adminGroups, viewerGroups } = this.settings();
    if (groups.some((g) => adminGroups.includes(g))) return 'admin';
    if (groups.some((g) => viewerGroups.includes(g))) return 'viewer';
    return null;
  }

  private settings(): OidcConfig {
    if (!this.config) throw new SsoError('Single sign-on is not configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)');
    return this.config;
  }

  private discover(): Promise<{ client: Client; configuration: OpenIdClient.Configuration }> {
    const settings = this.settings();
    this.discovered ??= (async () => {
      // openid-client is an ES module: loaded only when single sign-on is used.
      const client: Client = await import('openid-client');
      const insecure = new URL(settings.issuer).protocol === 'http:'; // loopback only (checked at start)
      const configuration = await client.discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, insecure ? { execute: [client.allowInsecureRequests] } : undefined);
      return { client, configuration };
    })();
    return this.discovered.catch((error: unknown) => {
      this.discovered = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.warn({ err: reason, issuer: settings.issuer }, 'single sign-on: provider discovery failed');
      throw new SsoError(`The identity provider at ${settings.issuer} cannot be reached (${reason.slice(0, 200)})`);
    });
  }
}

/** A groups claim as providers send it: a list, or one string of names separated by commas or spaces. */
function groupsOf(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  if (typeof value === 'string') return value.split(/[\s,]+/).filter(Boolean);
  return undefined;
}
