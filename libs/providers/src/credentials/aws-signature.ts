import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import type { SignatureV4 } from '@smithy/signature-v4';
import type { AwsCredentialIdentity, Checksum, SourceData } from '@smithy/types';
import type { SignableRequest, UpstreamCredential } from './upstream-credential';

/** A credential source as the AWS SDK's default chain is: memoised, refreshed ahead of expiry, forced on demand. */
export type AwsCredentialSource = (options?: { forceRefresh?: boolean }) => Promise<AwsCredentialIdentity>;

/**
 * SHA-256 for the signer from node:crypto (OpenSSL) rather than a JavaScript implementation:
 * signing is on every Bedrock call, and the payload hash is most of its cost.
 */
class NodeSha256 implements Checksum {
  private hash: Hash | Hmac;

  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }

  update(chunk: Uint8Array): void {
    this.hash.update(chunk);
  }

  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.hash.digest());
  }

  reset(): void {
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    if (this.secret === undefined) return createHash('sha256');
    const key = typeof this.secret === 'string' ? this.secret : Buffer.from(this.secret instanceof ArrayBuffer ? new Uint8Array(this.secret) : new Uint8Array(this.secret.buffer, this.secret.byteOffset, this.secret.byteLength));
    return createHmac('sha256', key);
  }
}

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
 * time, so a call signs with what is in memory; `@smithy/signature-v4` caches the derived signing
 * key per day. Both libraries load when a Bedrock provider is first called.
 */
export class AwsSignature implements UpstreamCredential {
  readonly describe = 'aws default credential chain';
  private signer: Promise<SignatureV4> | undefined;
  private refreshNext = false;

  /** `source`: for tests; by default the AWS SDK's default chain. */
  constructor(
    private readonly region: string,
    private readonly source: () => Promise<AwsCredentialSource> = awsDefaultChain,
  ) {}

  /** The headers to add: authorization, x-amz-date, x-amz-content-sha256 and, with temporary credentials, x-amz-security-token. */
  async headers(request: SignableRequest): Promise<Record<string, string>> {
    const url = new URL(request.url);
    const signed = await (await this.load()).sign({
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port === '' ? undefined : Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { host: url.host, ...request.headers },
      body: request.body,
    });
    // Every header the signer added is signed or is the signature: all must be sent as they are.
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(signed.headers)) if (name !== 'host' && !(name in request.headers)) out[name] = value;
    return out;
  }

  /** The upstream refused the credentials (expired, revoked): fetch fresh ones for the next call. */
  invalidate(): void {
    this.refreshNext = true;
  }

  private load(): Promise<SignatureV4> {
    if (!this.signer) {
      const signer = import('@smithy/signature-v4').then(
        ({ SignatureV4 }) => new SignatureV4({ service: 'bedrock', region: this.region, sha256: NodeSha256, credentials: () => this.credentials() }),
      );
      // A failed load is retried on the next call rather than remembered.
      signer.catch(() => {
        if (this.signer === signer) this.signer = undefined;
      });
      this.signer = signer;
    }
    return this.signer;
  }

  private async credentials(): Promise<AwsCredentialIdentity> {
    const source = await this.source();
    const forceRefresh = this.refreshNext;
    this.refreshNext = false;
    return source(forceRefresh ? { forceRefresh } : undefined);
  }
}
