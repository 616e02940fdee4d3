import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { checkSimAwsKey } from './aws-credentials';

/**
 * AWS Signature Version 4, checked the way AWS checks it, written here from the specification so
 * that the gateway's signer (a library) is verified by an independent implementation:
 * - the canonical request: method, the path with each segment URI-encoded once more (every service
 *   but S3), the sorted query, the signed headers (trimmed, inner spaces collapsed), the payload hash;
 * - the string to sign over its SHA-256, the scope `date/region/service/aws4_request`;
 * - the signing key by the HMAC chain from `AWS4` + secret; the signature compared in constant time.
 */
export interface SigV4Request {
  method: string;
  /** The path and query exactly as received (still percent-encoded). */
  rawUrl: string;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

export type SigV4Result =
  | { ok: true; accessKeyId: string; region: string; service: string; temporary: boolean; denied: boolean }
  | { ok: false; status: number; errorType: string; message: string };

/** What the signature covers besides the request itself: the signed header names, the time and the scope. */
export interface SigV4Signing {
  /** `host;x-amz-date;…`, as the Authorization header lists them. */
  signedHeaders: string;
  /** `20150830T123600Z`. */
  amzDate: string;
  scope: { date: string; region: string; service: string };
  secretAccessKey: string;
}

/** The intermediate values too, so a test can compare each with AWS's published ones. */
export interface SigV4Computation {
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
}

/** AWS refuses a request that reaches it more than five minutes from the time it was signed. */
const MAX_SKEW_MS = 5 * 60 * 1000;
const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/;

/** RFC 3986 unreserved characters stay; everything else is %XX, upper case, as SigV4 wants. */
export function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function canonicalPath(rawPath: string): string {
  const segments = rawPath.split('/').map((segment) => uriEncode(segment));
  return segments.join('/') || '/';
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function canonicalQuery(rawQuery: string): string {
  if (rawQuery === '') return '';
  return rawQuery
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const key = at < 0 ? pair : pair.slice(0, at);
      const value = at < 0 ? '' : pair.slice(at + 1);
      return [uriEncode(safeDecode(key)), uriEncode(safeDecode(value))] as const;
    })
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(data: string): string {
  return createHash('sha256').update(data, 'utf8').digest('hex');
}

/** `20261129T004230Z` → epoch ms, or NaN. */
function parseAmzDate(value: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s] = match;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
}

function formatAmzDate(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** AWS's own wording for a request signed too long ago, or too far ahead. */
function skewMessage(amzDate: string, signedAt: number, nowMs: number): string | undefined {
  const now = formatAmzDate(nowMs);
  if (signedAt < nowMs - MAX_SKEW_MS) return `Signature expired: ${amzDate} is now earlier than ${formatAmzDate(nowMs - MAX_SKEW_MS)} (${now} - 5 min.)`;
  if (signedAt > nowMs + MAX_SKEW_MS) return `Signature not yet current: ${amzDate} is still later than ${formatAmzDate(nowMs + MAX_SKEW_MS)} (${now} + 5 min.)`;
  return undefined;
}

/**
 * The signature of a request as received: the canonical request, the string to sign over its
 * SHA-256, the HMAC chain from `AWS4` + secret through the scope, the final HMAC in hex. The
 * payload line is the hash of the body that arrived, never a hash the client claims: a signed
 * `x-amz-content-sha256` that does not match the body fails as a signature mismatch (S3 alone
 * answers XAmzContentSHA256Mismatch).
 */
export function computeSigV4(request: SigV4Request, signing: SigV4Signing): SigV4Computation {
  const at = request.rawUrl.indexOf('?');
  const rawPath = at < 0 ? request.rawUrl : request.rawUrl.slice(0, at);
  const rawQuery = at < 0 ? '' : request.rawUrl.slice(at + 1);
  const headerLines = signing.signedHeaders.split(';').map((name) => `${name}:${(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [request.method, canonicalPath(rawPath), canonicalQuery(rawQuery), headerLines, signing.signedHeaders, sha256Hex(request.body)].join('\n');
  const { date, region, service } = signing.scope;
  const stringToSign = ['AWS4-HMAC-SHA256', signing.amzDate, `${date}/${region}/${service}/aws4_request`, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${signing.secretAccessKey}`, date), region), service), 'aws4_request');
  return { canonicalRequest, stringToSign, signature: hmac(signingKey, stringToSign).toString('hex') };
}

const fail = (status: number, errorType: string, message: string): SigV4Result => ({ ok: false, status, errorType, message });

/**
 * Bedrock's check of a signed request, in AWS's order: the header's form, the time, the scope,
 * the key (and a temporary key's session token), then the signature. `nowMs` is the server's clock.
 */
export function verifySigV4(request: SigV4Request, nowMs = Date.now()): SigV4Result {
  const authorization = request.headers['authorization'];
  if (!authorization) return fail(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const match = AUTHORIZATION.exec(authorization.trim());
  if (!match) return fail(403, 'IncompleteSignatureException', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. Authorization=${authorization.split(' ')[0] ?? ''}`);
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  const amzDate = request.headers['x-amz-date'] ?? '';
  const signedAt = parseAmzDate(amzDate);
  if (Number.isNaN(signedAt)) return fail(403, 'IncompleteSignatureException', "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const skew = skewMessage(amzDate, signedAt, nowMs);
  if (skew !== undefined) return fail(403, 'InvalidSignatureException', skew);
  if (!amzDate.startsWith(date)) return fail(403, 'InvalidSignatureException', `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${date}' != '${amzDate.slice(0, 8)}'`);
  if (service !== 'bedrock') return fail(403, 'InvalidSignatureException', "Credential should be scoped to correct service: 'bedrock'.");
  if (!signedHeaders.split(';').includes('host')) return fail(403, 'InvalidSignatureException', "'Host' must be a signed header.");
  const key = checkSimAwsKey(accessKeyId, request.headers['x-amz-security-token'], nowMs);
  if (!key.ok) return fail(403, key.errorType, key.message);
  const computed = computeSigV4(request, { signedHeaders, amzDate, scope: { date, region, service }, secretAccessKey: key.secret });
  const expected = Buffer.from(computed.signature);
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return fail(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.');
  }
  return { ok: true, accessKeyId, region, service, temporary: accessKeyId.startsWith('ASIA'), denied: key.denied };
}
