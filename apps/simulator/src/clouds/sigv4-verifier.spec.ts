import { SignatureV4 } from '@smithy/signature-v4';
import { mintSimAwsTemporaryCredentials, simAwsDeniedCredentials, simAwsStaticCredentials, type SimAwsCredentials } from './aws-credentials';
import { computeSigV4, verifySigV4, type SigV4Request } from './sigv4-verifier';
import { NodeSha256 } from './testing/bedrock-wire';

// The verifier is the simulator's own SigV4 implementation. It is checked twice: against the
// signatures AWS publishes for its signing test suite (awslabs/aws-c-auth,
// tests/aws-signing-test-suite/v4), and against requests signed by @smithy/signature-v4, the
// AWS SDK's signer, which must verify untouched and fail once any signed part is changed.

describe('computeSigV4 against the AWS signing test suite', () => {
  const SUITE = { scope: { date: '20150830', region: 'us-east-1', service: 'service' }, amzDate: '20150830T123600Z', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
  const request = (method: string, rawUrl: string, extra: Record<string, string> = {}): SigV4Request => ({
    method,
    rawUrl,
    headers: { host: 'example.amazonaws.com', 'x-amz-date': '20150830T123600Z', ...extra },
    body: '',
  });

  it('get-vanilla: the canonical request and the signature AWS publishes', () => {
    const computed = computeSigV4(request('GET', '/'), { ...SUITE, signedHeaders: 'host;x-amz-date' });
    expect(computed.canonicalRequest).toBe(['GET', '/', '', 'host:example.amazonaws.com', 'x-amz-date:20150830T123600Z', '', 'host;x-amz-date', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'].join('\n'));
    expect(computed.stringToSign.split('\n').slice(0, 3)).toEqual(['AWS4-HMAC-SHA256', '20150830T123600Z', '20150830/us-east-1/service/aws4_request']);
    expect(computed.signature).toBe('5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31');
  });

  it.each([
    ['get-vanilla-query-order-key-case (the query sorted)', request('GET', '/?Param2=value2&Param1=value1'), 'host;x-amz-date', 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
    ['post-vanilla', request('POST', '/'), 'host;x-amz-date', '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
    [
      'get-header-value-trim (values trimmed, inner spaces collapsed)',
      request('GET', '/', { 'my-header1': ' value1', 'my-header2': '"a   b   c"' }),
      'host;my-header1;my-header2;x-amz-date',
      'acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736',
    ],
    [
      'get-vanilla-with-session-token',
      request('GET', '/', { 'x-amz-security-token': '6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267' }),
      'host;x-amz-date;x-amz-security-token',
      '07ec1639c89043aa0e3e2de82b96708f198cceab042d4a97044c66dd9f74e7f8',
    ],
  ])('%s', (_case, signed, signedHeaders, signature) => {
    expect(computeSigV4(signed, { ...SUITE, signedHeaders }).signature).toBe(signature);
  });
});

describe('verifySigV4 against requests signed by @smithy/signature-v4', () => {
  const SIGNED_AT = Date.UTC(2026, 10, 29, 12, 0, 0);
  const PATH = '/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse';
  const BODY = JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'Hi' }] }] });

  /** A Converse call as the AWS SDK signs it: the path already escaped once, escaped again when signing. */
  async function signed(credentials: SimAwsCredentials, service = 'bedrock', signedAt = SIGNED_AT): Promise<SigV4Request> {
    const signer = new SignatureV4({ credentials, region: 'us-east-1', service, sha256: NodeSha256 });
    const headers = { host: 'bedrock-runtime.us-east-1.amazonaws.com', 'content-type': 'application/json' };
    const request = await signer.sign({ method: 'POST', protocol: 'https:', hostname: headers.host, path: PATH, query: {}, headers, body: BODY }, { signingDate: new Date(signedAt) });
    const lowered = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    return { method: 'POST', rawUrl: PATH, headers: lowered, body: BODY };
  }

  it('accepts the request as signed, and names the key, the region and the kind of key', async () => {
    const credentials = simAwsStaticCredentials('VERIFIER');
    expect(verifySigV4(await signed(credentials), SIGNED_AT)).toEqual({ ok: true, accessKeyId: credentials.accessKeyId, region: 'us-east-1', service: 'bedrock', temporary: false, denied: false });
  });

  it.each<[string, (request: SigV4Request) => SigV4Request]>([
    ['the body', (r) => ({ ...r, body: r.body.replace('Hi', 'Ho') })],
    ['the path (the model id unescaped)', (r) => ({ ...r, rawUrl: r.rawUrl.replace('%3A', ':') })],
    ['a query added', (r) => ({ ...r, rawUrl: `${r.rawUrl}?x=1` })],
    ['a signed header', (r) => ({ ...r, headers: { ...r.headers, 'content-type': 'text/plain' } })],
    ['the method', (r) => ({ ...r, method: 'PUT' })],
    ['the region in the scope', (r) => ({ ...r, headers: { ...r.headers, authorization: r.headers['authorization']!.replace('/us-east-1/', '/us-west-2/') } })],
  ])('refuses the request once %s is changed, in AWS’s words', async (_part, tamper) => {
    expect(verifySigV4(tamper(await signed(simAwsStaticCredentials('VERIFIER'))), SIGNED_AT)).toEqual({
      ok: false,
      status: 403,
      errorType: 'InvalidSignatureException',
      message: 'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    });
  });

  it('refuses a wrong secret as a bad signature, and a key it never made as unrecognised', async () => {
    const { accessKeyId } = simAwsStaticCredentials('VERIFIER');
    expect(verifySigV4(await signed({ accessKeyId, secretAccessKey: 'not-the-secret' }), SIGNED_AT)).toMatchObject({ ok: false, errorType: 'InvalidSignatureException' });
    expect(verifySigV4(await signed({ accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x' }), SIGNED_AT)).toEqual({ ok: false, status: 403, errorType: 'UnrecognizedClientException', message: 'The security token included in the request is invalid.' });
  });

  it('allows five minutes of clock skew either way and no more, with AWS’s messages', async () => {
    const request = await signed(simAwsStaticCredentials('VERIFIER'));
    const minutes = (n: number): number => SIGNED_AT + n * 60_000;
    expect([verifySigV4(request, minutes(5)).ok, verifySigV4(request, minutes(-5)).ok]).toEqual([true, true]);
    expect(verifySigV4(request, minutes(5) + 1000)).toEqual({ ok: false, status: 403, errorType: 'InvalidSignatureException', message: 'Signature expired: 20261129T120000Z is now earlier than 20261129T120001Z (20261129T120501Z - 5 min.)' });
    expect(verifySigV4(request, minutes(-5) - 1000)).toEqual({ ok: false, status: 403, errorType: 'InvalidSignatureException', message: 'Signature not yet current: 20261129T120000Z is still later than 20261129T115959Z (20261129T115459Z + 5 min.)' });
  });

  it('accepts temporary credentials until their session token expires, then ExpiredTokenException', async () => {
    const temporary = mintSimAwsTemporaryCredentials(60, SIGNED_AT);
    const request = await signed(temporary);
    expect(request.headers['x-amz-security-token']).toBe(temporary.sessionToken);
    expect(verifySigV4(request, SIGNED_AT + 59_000)).toMatchObject({ ok: true, temporary: true });
    expect(verifySigV4(request, SIGNED_AT + 60_000)).toEqual({ ok: false, status: 403, errorType: 'ExpiredTokenException', message: 'The security token included in the request is expired' });
    const other = mintSimAwsTemporaryCredentials(60, SIGNED_AT);
    const borrowed = { ...request, headers: { ...request.headers, 'x-amz-security-token': other.sessionToken } };
    expect(verifySigV4(borrowed, SIGNED_AT)).toMatchObject({ ok: false, errorType: 'UnrecognizedClientException' });
  });

  it('verifies a denied principal’s signature and leaves the refusal to the caller', async () => {
    const denied = simAwsDeniedCredentials();
    expect(verifySigV4(await signed(denied), SIGNED_AT)).toMatchObject({ ok: true, accessKeyId: denied.accessKeyId, denied: true });
  });

  it('refuses a signature scoped to another service, and a request with no signature', async () => {
    expect(verifySigV4(await signed(simAwsStaticCredentials('VERIFIER'), 's3'), SIGNED_AT)).toEqual({ ok: false, status: 403, errorType: 'InvalidSignatureException', message: "Credential should be scoped to correct service: 'bedrock'." });
    expect(verifySigV4({ method: 'POST', rawUrl: PATH, headers: {}, body: BODY }, SIGNED_AT)).toEqual({ ok: false, status: 403, errorType: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' });
  });
});
