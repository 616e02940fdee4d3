import type { IncomingMessage, ServerResponse } from 'node:http';
import { mintSimAwsTemporaryCredentials, type SimAwsTemporaryCredentials } from './aws-credentials';
import { sendJsonBody, sendText, startLoopbackServer } from './loopback-server';

export interface AwsCredentialServerOptions {
  /** Lifetime of every issued credential; default 3600 s. */
  expiresInSeconds?: number;
  /** The token ECS/EKS put in AWS_CONTAINER_AUTHORIZATION_TOKEN; when set, required. */
  containerAuthorizationToken?: string;
  /** The instance profile's role name; default `sim-instance-role`. */
  roleName?: string;
}

export interface IssuedAwsCredentials {
  via: 'container' | 'instance-metadata';
  accessKeyId: string;
  expiration: string;
}

export interface RunningAwsCredentialServer {
  url: string;
  /** The value for AWS_CONTAINER_CREDENTIALS_FULL_URI. */
  containerCredentialsUri: string;
  /** The value for AWS_EC2_METADATA_SERVICE_ENDPOINT. */
  instanceMetadataEndpoint: string;
  /** Credentials issued so far, oldest first (secrets left out). */
  issued(): IssuedAwsCredentials[];
  close(): Promise<void>;
}

const CONTAINER_PATH = '/v2/credentials/sim';
const IMDS_TOKEN = '/latest/api/token';
const IMDS_ROLES = /^\/latest\/meta-data\/iam\/security-credentials(-extended)?\/?([^/]*)$/;

interface State {
  options: Required<Omit<AwsCredentialServerOptions, 'containerAuthorizationToken'>> & { containerAuthorizationToken?: string };
  issued: IssuedAwsCredentials[];
  imdsTokens: Set<string>;
}

function issue(state: State, via: IssuedAwsCredentials['via']): SimAwsTemporaryCredentials {
  const credentials = mintSimAwsTemporaryCredentials(state.options.expiresInSeconds);
  state.issued.push({ via, accessKeyId: credentials.accessKeyId, expiration: credentials.expiration.toISOString() });
  return credentials;
}

/** ECS / EKS Pod Identity: GET the full URI, the authorization token in `Authorization`. */
function container(state: State, req: IncomingMessage, res: ServerResponse): void {
  const expected = state.options.containerAuthorizationToken;
  if (expected !== undefined && req.headers['authorization'] !== expected) return sendJsonBody(res, 401, { code: 'AccessDenied', message: 'Authorization token is invalid.' });
  const c = issue(state, 'container');
  sendJsonBody(res, 200, { AccessKeyId: c.accessKeyId, SecretAccessKey: c.secretAccessKey, Token: c.sessionToken, Expiration: c.expiration.toISOString(), RoleArn: 'arn:aws:iam::000000000000:role/sim-task-role' });
}

/** EC2 instance metadata, IMDSv2: a session token first (PUT), then the role and its credentials. */
function instanceMetadata(state: State, req: IncomingMessage, url: URL, res: ServerResponse): void {
  if (url.pathname === IMDS_TOKEN) {
    if (req.method !== 'PUT') return sendText(res, 405, 'Method Not Allowed');
    const token = `imds-sim-${state.imdsTokens.size}-${Date.now()}`;
    state.imdsTokens.add(token);
    return sendText(res, 200, token, { 'x-aws-ec2-metadata-token-ttl-seconds': String(req.headers['x-aws-ec2-metadata-token-ttl-seconds'] ?? '21600') });
  }
  const token = req.headers['x-aws-ec2-metadata-token'];
  if (typeof token !== 'string' || !state.imdsTokens.has(token)) return sendText(res, 401, 'Unauthorized');
  const match = IMDS_ROLES.exec(url.pathname);
  if (!match) return sendText(res, 404, 'Not Found');
  const [, , role] = match;
  if (!role) return sendText(res, 200, state.options.roleName);
  if (role !== state.options.roleName) return sendText(res, 404, 'Not Found');
  const c = issue(state, 'instance-metadata');
  sendJsonBody(res, 200, {
    Code: 'Success', LastUpdated: new Date().toISOString(), Type: 'AWS-HMAC',
    AccessKeyId: c.accessKeyId, SecretAccessKey: c.secretAccessKey, Token: c.sessionToken, Expiration: c.expiration.toISOString(),
  });
}

/**
 * Where AWS workloads get rotating temporary credentials, on loopback: the container credentials
 * endpoint (ECS, EKS Pod Identity) and EC2 instance metadata (IMDSv2). Every credential it issues
 * is accepted by the simulator's Bedrock surface until it expires.
 */
export async function startAwsCredentialServer(options: AwsCredentialServerOptions = {}): Promise<RunningAwsCredentialServer> {
  const state: State = {
    options: { expiresInSeconds: options.expiresInSeconds ?? 3600, roleName: options.roleName ?? 'sim-instance-role', ...(options.containerAuthorizationToken ? { containerAuthorizationToken: options.containerAuthorizationToken } : {}) },
    issued: [],
    imdsTokens: new Set(),
  };
  const server = await startLoopbackServer((req, url, _body, res) => {
    if (url.pathname === CONTAINER_PATH) return container(state, req, res);
    if (url.pathname.startsWith('/latest/')) return instanceMetadata(state, req, url, res);
    sendText(res, 404, `Not Found: ${url.pathname}\n`);
  });
  return {
    url: server.url,
    containerCredentialsUri: `${server.url}${CONTAINER_PATH}`,
    instanceMetadataEndpoint: server.url,
    issued: () => state.issued.map((entry) => ({ ...entry })),
    close: () => server.close(),
  };
}
