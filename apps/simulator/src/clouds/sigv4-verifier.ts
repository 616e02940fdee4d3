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
  | { ok: true; accessKeyId: string; region: string; service: string; temporary: boolean }
  | { ok: false; status: number; errorType: string; message: string };

/** AWS refuses a request signed more than this far from its clock. */
const MAX_SKEW_MS = 15 * 60 * 1000;
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

const fail = (status: number, errorType: string, message: string): SigV4Result => ({ ok: false, status, errorType, message });

export function verifySigV4(request: SigV4Request, nowMs = Date.now()): SigV4Result {
  const authorization = request.headers['authorization'];
  if (!authorization) return fail(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
  const match = AUTHORIZATION.exec(authorization.trim());
  if (!match) return fail(403, 'IncompleteSignatureException', `Authorization header requires 'Credential', 'Signature' and 'SignedHeaders' parameters. Authorization=${authorization.split(' ')[0] ?? ''}`);
  const [, accessKeyId = '', scopeDate = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  const amzDate = request.headers['x-amz-date'] ?? '';
  const signedAt = parseAmzDate(amzDate);
  if (Number.isNaN(signedAt)) return fail(403, 'IncompleteSignatureException', 'Authorization header requires existence of either a \'X-Amz-Date\' or a \'Date\' header.');
  if (Math.abs(nowMs - signedAt) > MAX_SKEW_MS) {
    return fail(403, 'InvalidSignatureException', `Signature expired: ${amzDate} is now earlier or later than the 15 minutes allowed around the server's time.`);
  }
  if (!amzDate.startsWith(scopeDate)) return fail(403, 'InvalidSignatureException', `Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP: '${scopeDate}' != '${amzDate.slice(0, 8)}'`);
  if (service !== 'bedrock') return fail(403, 'InvalidSignatureException', `Credential should be scoped to correct service: 'bedrock'.`);
  const names = signedHeaders.split(';');
  if (!names.includes('host')) return fail(403, 'InvalidSignatureException', "'Host' must be a signed header.");
  const key = checkSimAwsKey(accessKeyId, request.headers['x-amz-security-token'], nowMs);
  if (!key.ok) return fail(403, key.errorType, key.message);
  const at = request.rawUrl.indexOf('?');
  const rawPath = at < 0 ? request.rawUrl : request.rawUrl.slice(0, at);
  const rawQuery = at < 0 ? '' : request.rawUrl.slice(at + 1);
  const headerLines = names.map((name) => `${name}:${(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const payloadHash = sha256Hex(request.body);
  const claimed = request.headers['x-amz-content-sha256'];
  if (claimed !== undefined && claimed !== payloadHash) return fail(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  const canonicalRequest = [request.method, canonicalPath(rawPath), canonicalQuery(rawQuery), headerLines, signedHeaders, payloadHash].join('\n');
  const scope = `${scopeDate}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${key.secret}`, scopeDate), region), service), 'aws4_request');
  const expected = Buffer.from(hmac(signingKey, stringToSign).toString('hex'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return fail(403, 'InvalidSignatureException', 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.');
  }
  return { ok: true, accessKeyId, region, service, temporary: accessKeyId.startsWith('ASIA') };
}
