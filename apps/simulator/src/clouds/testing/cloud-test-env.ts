import diagnostics from 'node:diagnostics_channel';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gaxios } from 'google-auth-library';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/**
 * Sets process variables for the test and returns a function that restores them; `undefined`
 * removes a variable.
 */
export function setEnv(values: Record<string, string | undefined>): () => void {
  const saved = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  const apply = (entries: Record<string, string | undefined>): void => {
    for (const [name, value] of Object.entries(entries)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  apply(values);
  return () => apply(saved);
}

/**
 * Points google-auth-library's Application Default Credentials at loopback only: the metadata
 * server at `metadataHost`, no gcloud user credentials (an empty CLOUDSDK_CONFIG), and a
 * key file only when given. gaxios loads node-fetch with a dynamic import, which Jest's VM
 * refuses without --experimental-vm-modules; its shared instance (the one gcp-metadata uses)
 * is given Node's fetch instead. Outside Jest none of that is needed.
 */
export function useGoogleLoopback(metadataHost: string, keyFile?: string): () => void {
  const gcloudDir = mkdtempSync(join(tmpdir(), 'sim-gcloud-'));
  const restoreEnv = setEnv({
    GCE_METADATA_HOST: metadataHost,
    GCE_METADATA_IP: undefined,
    METADATA_SERVER_DETECTION: undefined,
    CLOUDSDK_CONFIG: gcloudDir,
    GOOGLE_APPLICATION_CREDENTIALS: keyFile,
    GOOGLE_CLOUD_PROJECT: undefined,
    GCLOUD_PROJECT: undefined,
  });
  const previousFetch = gaxios.instance.defaults.fetchImplementation;
  gaxios.instance.defaults.fetchImplementation = nodeFetch;
  return () => {
    gaxios.instance.defaults.fetchImplementation = previousFetch;
    restoreEnv();
    rmSync(gcloudDir, { recursive: true, force: true });
  };
}

/** Node's own fetch, typed as gaxios expects an implementation. */
export const nodeFetch: typeof fetch = (input, init) => fetch(input, init);

/**
 * Records the host of every outbound connection, from fetch (undici's diagnostics channel) and
 * from node:http/https (MSAL, node-fetch). These channels are process-wide, so they also see what
 * libraries do inside Jest's sandbox. Any host other than loopback here would have been resolved
 * by DNS and left the machine, e.g. metadata.google.internal or login.microsoftonline.com.
 */
export function watchOutboundHosts(): { hosts(): string[]; stop(): void } {
  const seen: string[] = [];
  const onFetch = (message: unknown): void => {
    seen.push(String((message as { connectParams: { hostname: string } }).connectParams.hostname));
  };
  const onHttp = (message: unknown): void => {
    seen.push(String((message as { request: { host: string } }).request.host));
  };
  diagnostics.subscribe('undici:client:beforeConnect', onFetch);
  diagnostics.subscribe('http.client.request.start', onHttp);
  return {
    hosts: () => seen.filter((host) => !LOOPBACK_NAMES.has(host)),
    stop: () => {
      diagnostics.unsubscribe('undici:client:beforeConnect', onFetch);
      diagnostics.unsubscribe('http.client.request.start', onHttp);
    },
  };
}

/**
 * Points the AWS SDK's default credential chain at loopback only: empty config and credentials
 * files (never ~/.aws), and no AWS_* variable but those given — every one is cleared, since the
 * SDKs read many (profiles, keys, endpoints such as AWS_ENDPOINT_URL_BEDROCK_RUNTIME, the auth
 * scheme preference), and a list would fall behind. Instance metadata is off unless
 * `AWS_EC2_METADATA_SERVICE_ENDPOINT` is given. Returns a function that restores all.
 */
export function useAwsLoopback(values: Record<string, string> = {}): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'sim-aws-'));
  const cleared = Object.fromEntries(Object.keys(process.env).filter((name) => name.startsWith('AWS_')).map((name) => [name, undefined]));
  const restoreEnv = setEnv({
    ...cleared,
    AWS_CONFIG_FILE: join(dir, 'config'),
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
    AWS_EC2_METADATA_DISABLED: values['AWS_EC2_METADATA_SERVICE_ENDPOINT'] ? undefined : 'true',
    ...values,
  });
  return () => {
    restoreEnv();
    rmSync(dir, { recursive: true, force: true });
  };
}
