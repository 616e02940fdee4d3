/**
 * What the HTTP fuzz suite (test/fuzz.e2e-spec.ts) varies besides the body: how a request is
 * authenticated, its path's model segment and method, its query string, its framing (content
 * encoding, charset, chunking), the headers a tenant controls, and how its bytes are broken.
 * Requests go out through node:http exactly as written here.
 */
import fc from 'fast-check';
import { request, type IncomingHttpHeaders } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { toJsonText, type Json } from '../../libs/dialects/src/__fixtures__/fuzz-bodies';
import { MAX_JSON_DEPTH } from '../../libs/dialects/src/common/json-nesting';

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A hang guard only (every answer takes milliseconds): a request that never ends fails as `hung`. */
const HANG_GUARD_MS = 20_000;

/** Sends the call as is (the path unnormalised) and reads the whole answer. */
export function sendRaw(port: number, call: Call): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: call.method, path: call.path, headers: call.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(HANG_GUARD_MS, () => req.destroy(new Error('hung')));
    req.on('error', reject);
    req.end(call.body);
  });
}

export type Auth = 'header' | 'none' | 'wrong' | 'query';

export const auth = fc.oneof({ weight: 12, arbitrary: fc.constant<Auth>('header') }, { weight: 1, arbitrary: fc.constantFrom<Auth>('none', 'wrong', 'query') });

/**
 * Model ids as a path part: real ones, %-encodings good and bad (latin-1 `%E9`, cut UTF-8), slashes,
 * dots, unicode. Only ASCII goes out raw: node's HTTP parser answers other bytes in a request
 * line with a bare 400 before any application code runs (see the report on issue 12).
 */
export const modelSegment = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('rosetta/gemini-2.5-flash', 'rosetta/gpt-4o-mini', 'rosetta/claude-haiku-4-5', 'rosetta/auto') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'rosetta%2Fgemini-2.5-flash', 'models/rosetta/gemini-2.5-flash', '%ZZ', '%', '%E0%A4%A', '%C0%AF', '%FF', '%00', '%25ZZ', '%2e%2e/%2e%2e/admin',
      'rosetta/../../admin/keys', 'rosetta//gemini-2.5-flash', '', '/', 'rosetta/gemini-2.5-flash/', 'caf%E9', '%F0%9F%A6%80', '%uD83E', `rosetta/${'x'.repeat(3000)}`, '1', '-1', '99999999999999999999',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom('a', '/', '%', '2', 'F', 'Z', 'E', ':', '.', '%C3%A9', '~', '#', ';', '@'), maxLength: 12 }) },
);

/** Query strings: the `alt` rule's cases, bad escapes, repeated and bracketed keys, random text. */
export const query = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('', 'alt=sse') },
  fc.constantFrom('', 'alt=sse', 'alt=json', 'alt=SSE', 'alt=proto', 'alt=sse&alt=sse', 'alt=sse&alt=json', 'alt=', 'alt', 'alt=%ZZ', '%ZZ=1', 'a[b]=1&a[c]=2', 'alt[]=sse', '&&=&', 'key=wrong', 'dialect=gemini'),
  fc.string({ unit: fc.constantFrom('a', 'l', 't', '=', '&', '%', 'Z', '2', '5', '%E9', '%C3%A9', '+', '[', ']'), maxLength: 16 }),
);

export type Framing = { encoding: 'identity' | 'gzip' | 'deflate' | 'br' | 'gzip-claimed' | 'compress' | 'GZIP' | 'gzip, identity'; contentType?: string; chunked: boolean };

/** Mostly clean framing (so bodies reach the decoders), sometimes hostile: bad encodings and charsets, lying headers. */
export const framing: fc.Arbitrary<Framing> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      encoding: fc.constantFrom<Framing['encoding']>('identity', 'identity', 'identity', 'gzip', 'deflate', 'br'),
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
      chunked: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      encoding: fc.constantFrom<Framing['encoding']>('identity', 'gzip-claimed', 'compress', 'GZIP', 'gzip, identity'),
      contentType: fc.constantFrom(
        'application/json; charset="UTF-8"', 'application/json; charset=latin1', 'application/json; charset=utf-16le', 'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x', 'application/json; charset=',
      ),
      chunked: fc.boolean(),
    }),
  },
);

/** Headers a tenant controls that the gateway reads or echoes: its own request id, Anthropic's version and betas. */
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 200 });
export const extraHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 1,
    arbitrary: fc.record(
      { 'x-request-id': fc.oneof(headerText, fc.constantFrom('req_1', '', ' ', '../../etc/passwd', 'x'.repeat(8000))), 'anthropic-version': headerText, 'anthropic-beta': headerText },
      { requiredKeys: [] },
    ),
  },
);

export type BodyForm = 'json' | 'truncated' | 'invalid-utf8' | 'bom' | 'empty' | 'text' | 'too-deep';
export const bodyForm = fc.oneof(
  { weight: 12, arbitrary: fc.constant<BodyForm>('json') },
  { weight: 1, arbitrary: fc.constantFrom<BodyForm>('truncated', 'invalid-utf8', 'bom', 'empty', 'text', 'too-deep') },
);

/** The body's bytes: the JSON as is, or broken in one of a few ways. */
export function bodyBytes(json: Json, form: BodyForm, cut: number): Buffer {
  const text = toJsonText(json);
  switch (form) {
    case 'json':
      return Buffer.from(text);
    case 'truncated':
      return Buffer.from(text.slice(0, cut % Math.max(1, text.length)));
    case 'invalid-utf8': {
      const bytes = Buffer.from(text);
      const at = cut % Math.max(1, bytes.length);
      return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), bytes.subarray(at)]);
    }
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    case 'empty':
      return Buffer.alloc(0);
    case 'text':
      return Buffer.from(['model=rosetta/auto&messages=hi', 'null', '"a string"', '12', 'true', '\u0000', '{"a":1}{"b":2}', '[1,2,]', '{"a":NaN}'][cut % 9]!);
    case 'too-deep': {
      // A member nested past the limit (just past it, or thousands of levels) beside the rest of the body.
      const levels = MAX_JSON_DEPTH + (cut % 3) * 5_000;
      const deep = `${'{"a":'.repeat(levels)}[]${'}'.repeat(levels)}`;
      const member = `"${['metadata', 'generationConfig', 'tools', 'messages'][cut % 4]}":${deep}`;
      return Buffer.from(text === '{}' ? `{${member}}` : text.startsWith('{') ? `{${member},${text.slice(1)}` : deep);
    }
  }
}

export function frame(call: Call, body: Buffer, f: Framing): Call {
  const encoded: Record<Framing['encoding'], () => Buffer> = {
    identity: () => body,
    gzip: () => gzipSync(body),
    GZIP: () => gzipSync(body),
    deflate: () => deflateSync(body),
    br: () => brotliCompressSync(body),
    'gzip-claimed': () => body,
    compress: () => body,
    'gzip, identity': () => gzipSync(body),
  };
  const bytes = encoded[f.encoding]();
  const headers = { ...call.headers };
  if (f.contentType !== undefined) headers['content-type'] = f.contentType;
  if (f.encoding !== 'identity') headers['content-encoding'] = f.encoding === 'gzip-claimed' ? 'gzip' : f.encoding;
  if (f.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(bytes.length);
  return { ...call, headers, body: bytes };
}

/** Mostly the three methods, sometimes a near miss. */
export const GEMINI_METHODS = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(':generateContent', ':streamGenerateContent', ':countTokens') },
  { weight: 1, arbitrary: fc.constantFrom('%3AgenerateContent', ':generateContent/', ':GenerateContent', '', ':', '::countTokens', ':embedContent') },
);
