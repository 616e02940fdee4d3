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

  /** `credential`: for tests; by default the chain, the library loaded only when an Azure provider first calls. */
  constructor(credential?: TokenCredential, options: Omit<RefreshingTokenOptions, 'fetch'> = {}) {
    let ready: Promise<TokenCredential> | undefined = credential ? Promise.resolve(credential) : undefined;
    this.token = new RefreshingToken({
      ...options,
      fetch: async () => {
        ready ??= import('@azure/identity').then((lib) => new lib.DefaultAzureCredential());
        const access = await (await ready).getToken(AZURE_COGNITIVE_SERVICES_SCOPE);
        if (!access) throw new Error('no access token was returned');
        return { token: access.token, expiresAtMs: access.expiresOnTimestamp };
      },
    });
  }

  async headers(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.token.get()}` };
  }

  invalidate(): void {
    this.token.invalidate();
  }
}
