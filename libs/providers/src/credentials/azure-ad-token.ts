import type { TokenCredential } from '@azure/identity';
import { RefreshingToken, type RefreshingTokenOptions } from './refreshing-token';
import type { UpstreamCredential } from './upstream-credential';

/** The scope Azure OpenAI's Entra ID tokens are issued for. */
export const AZURE_COGNITIVE_SERVICES_SCOPE = 'https://cognitiveservices.azure.com/.default';

/**
 * Azure OpenAI's Entra ID bearer token (`auth: "azure-ad"`) from @azure/identity's default chain:
 * client-secret variables, workload identity, managed identity (IDENTITY_ENDPOINT /
 * IDENTITY_HEADER on App Service, IMDS on a VM) — cached and refreshed before it expires.
 */
export class AzureAdToken implements UpstreamCredential {
  readonly describe = 'azure entra id (default credential chain)';
  private readonly token: RefreshingToken;
  private ready: Promise<TokenCredential> | undefined;

  /** `credential`: for tests; by default the chain, the library loaded only when an Azure provider first calls. */
  constructor(private readonly credential?: TokenCredential, options: Omit<RefreshingTokenOptions, 'fetch'> = {}) {
    this.token = new RefreshingToken({
      ...options,
      fetch: async () => {
        this.ready ??= credential ? Promise.resolve(credential) : import('@azure/identity').then((lib) => new lib.DefaultAzureCredential());
        const access = await (await this.ready).getToken(AZURE_COGNITIVE_SERVICES_SCOPE);
        if (!access) throw new Error('no access token was returned');
        return { token: access.token, expiresAtMs: access.expiresOnTimestamp };
      },
    });
  }

  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token.get()}` };
  }

  /**
   * The library caches tokens too, and would hand the refused one back until it expires: the
   * default chain is built anew, so the next call asks the identity service.
   */
  invalidate(): void {
    this.token.invalidate();
    if (!this.credential) this.ready = undefined;
  }
}
