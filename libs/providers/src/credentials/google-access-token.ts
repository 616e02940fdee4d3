import type { GoogleAuth } from 'google-auth-library';
import { RefreshingToken, type RefreshingTokenOptions } from './refreshing-token';
import type { UpstreamCredential } from './upstream-credential';

export const GOOGLE_CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

/**
 * Vertex AI's bearer token from Application Default Credentials (google-auth-library): a
 * service-account or external-account file in GOOGLE_APPLICATION_CREDENTIALS, gcloud's user
 * credentials, or the metadata server (GCE_METADATA_HOST honoured) — cached and refreshed before
 * it expires, one fetch at a time for the whole process.
 */
export class GoogleAccessToken implements UpstreamCredential {
  readonly describe = 'google application default credentials';
  private readonly token: RefreshingToken;
  private ready: Promise<GoogleAuth> | undefined;

  /** `auth`: for tests; by default ADC, the library loaded only when a Vertex provider first calls. */
  constructor(private readonly auth?: GoogleAuth, options: Omit<RefreshingTokenOptions, 'fetch'> = {}) {
    this.token = new RefreshingToken({
      ...options,
      fetch: async () => {
        this.ready ??= auth ? Promise.resolve(auth) : import('google-auth-library').then((lib) => new lib.GoogleAuth({ scopes: [GOOGLE_CLOUD_PLATFORM_SCOPE] }));
        const client = await (await this.ready).getClient();
        const { token } = await client.getAccessToken();
        if (!token) throw new Error('no access token was returned');
        // The library knows the expiry it was given; without one, assume Google's usual hour.
        const expiry = client.credentials?.expiry_date;
        return { token, expiresAtMs: typeof expiry === 'number' ? expiry : Date.now() + 3_600_000 };
      },
    });
  }

  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token.get()}` };
  }

  /**
   * The library caches the token too, and would hand the refused one back until it expires:
   * Application Default Credentials are looked up anew, so the next call asks for a new token.
   */
  invalidate(): void {
    this.token.invalidate();
    if (!this.auth) this.ready = undefined;
  }
}
