import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomId } from '../http-io';
import { SIGNATURE_SECRET } from '../signatures';

/** A key pair the simulator accepts, as the AWS SDK takes it. */
export interface SimAwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials only. */
  sessionToken?: string;
  /** Temporary credentials only. */
  expiration?: Date;
}

const STATIC_PREFIX = 'AKIASIM';
const TEMPORARY_PREFIX = 'ASIASIM';
/** Not a `STATIC_PREFIX` name, so no `simAwsStaticCredentials(name)` can become denied by its name. */
const DENIED_PREFIX = 'AKIADENY';

/**
 * The secret key of an access key id, derived with the simulator's public HMAC key: the
 * simulator recognises every pair it (or a test) made without shared state, and a wrong secret is
 * a wrong signature.
 */
export function simAwsSecret(accessKeyId: string): string {
  return createHmac('sha256', SIGNATURE_SECRET).update(`aws-secret:${accessKeyId}`).digest('base64').slice(0, 40);
}

/** Long-lived keys the simulator accepts, e.g. for AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY. */
export function simAwsStaticCredentials(name = 'TESTKEY0001'): SimAwsCredentials {
  const accessKeyId = `${STATIC_PREFIX}${name.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 13)}`;
  return { accessKeyId, secretAccessKey: simAwsSecret(accessKeyId) };
}

/**
 * Keys of a principal that authenticates but may not call Bedrock: the signature is checked, then
 * the call is refused with 403 AccessDeniedException, as when IAM allows no bedrock:InvokeModel.
 */
export function simAwsDeniedCredentials(name = 'TESTKEY0001'): SimAwsCredentials {
  const accessKeyId = `${DENIED_PREFIX}${name.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 12)}`;
  return { accessKeyId, secretAccessKey: simAwsSecret(accessKeyId) };
}

function sign(payload: string): string {
  return createHmac('sha256', SIGNATURE_SECRET).update(`aws-session:${payload}`).digest('base64url');
}

export type SimAwsTemporaryCredentials = Required<SimAwsCredentials>;

/** Temporary credentials as STS, a container endpoint or instance metadata issue them: the session token carries the expiry. */
export function mintSimAwsTemporaryCredentials(expiresInSeconds: number, nowMs = Date.now()): SimAwsTemporaryCredentials {
  const accessKeyId = `${TEMPORARY_PREFIX}${randomId(13).toUpperCase().replace(/[^A-Z0-9]/g, 'X')}`;
  const exp = nowMs / 1000 + expiresInSeconds;
  const payload = Buffer.from(JSON.stringify({ akid: accessKeyId, exp })).toString('base64url');
  return { accessKeyId, secretAccessKey: simAwsSecret(accessKeyId), sessionToken: `IQoJsim${payload}.${sign(payload)}`, expiration: new Date(exp * 1000) };
}

export type AwsKeyCheck = { ok: true; secret: string; denied: boolean } | { ok: false; errorType: 'UnrecognizedClientException' | 'ExpiredTokenException'; message: string };

const INVALID_TOKEN = 'The security token included in the request is invalid.';

/** Whether the simulator knows this access key id (and, for temporary ones, its unexpired session token). */
export function checkSimAwsKey(accessKeyId: string, sessionToken: string | undefined, nowMs = Date.now()): AwsKeyCheck {
  if (accessKeyId.startsWith(STATIC_PREFIX) || accessKeyId.startsWith(DENIED_PREFIX)) return { ok: true, secret: simAwsSecret(accessKeyId), denied: accessKeyId.startsWith(DENIED_PREFIX) };
  if (!accessKeyId.startsWith(TEMPORARY_PREFIX)) return { ok: false, errorType: 'UnrecognizedClientException', message: INVALID_TOKEN };
  const match = /^IQoJsim([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(sessionToken ?? '');
  if (!match) return { ok: false, errorType: 'UnrecognizedClientException', message: INVALID_TOKEN };
  const [, payload = '', signature = ''] = match;
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, errorType: 'UnrecognizedClientException', message: INVALID_TOKEN };
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { akid?: unknown; exp?: unknown };
  if (claims.akid !== accessKeyId || typeof claims.exp !== 'number') return { ok: false, errorType: 'UnrecognizedClientException', message: INVALID_TOKEN };
  if (claims.exp * 1000 <= nowMs) return { ok: false, errorType: 'ExpiredTokenException', message: 'The security token included in the request is expired' };
  return { ok: true, secret: simAwsSecret(accessKeyId), denied: false };
}
