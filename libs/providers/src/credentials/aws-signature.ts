import { sign } from 'aws4';
import type { AwsCredentialIdentity } from '@smithy/types';
import type { SignableRequest, UpstreamCredential } from './upstream-credential';

/** A credential source as the AWS SDK's default chain is: memoised, refreshed ahead of expiry, forced on demand. */
export type AwsCredentialSource = (options?: { forceRefresh?: boolean }) => Promise<AwsCredentialIdentity>;

let defaultChain: Promise<AwsCredentialSource> | undefined;

/** The AWS SDK's default chain, one for the whole process whatever number of regions and providers use it. */
function awsDefaultChain(): Promise<AwsCredentialSource> {
  defaultChain ??= import('@aws-sdk/credential-providers').then(({ fromNodeProviderChain }) => fromNodeProviderChain());
  return defaultChain;
}

/**
 * AWS Signature Version 4 for Bedrock (service `bedrock`) in one region, with credentials from
 * the AWS default chain (`@aws-sdk/credential-providers`: variables with a session token, profile
 * files, web identity as on EKS, container credentials, instance metadata). The chain memoises
 * what it got and refreshes temporary credentials five minutes before they expire, one fetch at a
 * time, so a call signs with what is in memory. The signature itself is `aws4`'s: synchronous,
 * node:crypto throughout, the derived signing key cached per day — measured at half the CPU of
 * `@smithy/signature-v4` per call (docs/decisions/0024).
 */
export class AwsSignature implements UpstreamCredential {
  readonly describe = 'aws default credential chain';
  private refreshNext = false;

  /** `source`: for tests; by default the AWS SDK's default chain. */
  constructor(
    private readonly region: string,
    private readonly source: () => Promise<AwsCredentialSource> = awsDefaultChain,
  ) {}

  /**
   * The headers to add: authorization, x-amz-date, content-length (signed) and, with temporary
   * credentials, x-amz-security-token. The path is signed as sent, each segment escaped once more
   * as SigV4 wants for every service but S3.
   */
  async headers(request: SignableRequest): Promise<Record<string, string>> {
    const credentials = await this.credentials();
    const url = new URL(request.url);
    const options = { host: url.host, path: `${url.pathname}${url.search}`, method: request.method, service: 'bedrock', region: this.region, headers: { ...request.headers }, body: request.body };
    const signed = sign(options, credentials).headers as Record<string, string | number>;
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed)) {
      const lower = name.toLowerCase();
      if (lower !== 'host' && !(lower in request.headers)) out[lower] = String(value);
    }
    return out;
  }

  /** The upstream refused the credentials (expired, revoked): fetch fresh ones for the next call. */
  invalidate(): void {
    this.refreshNext = true;
  }

  private async credentials(): Promise<AwsCredentialIdentity> {
    const source = await this.source();
    const forceRefresh = this.refreshNext;
    this.refreshNext = false;
    return source(forceRefresh ? { forceRefresh } : undefined);
  }
}
