import { credentialScope } from './credential-scope';

describe('credentialScope', () => {
  it('names the caller by its key, bearer token or SigV4 access key id, never keeping the key itself', () => {
    const anthropic = credentialScope({ 'x-api-key': 'sk-ant-one' });
    expect(anthropic).toMatch(/^[0-9a-f]{32}$/);
    expect(anthropic).not.toContain('sk-ant');
    expect(credentialScope({ authorization: 'Bearer sk-ant-one' })).toBe(anthropic);
    expect(credentialScope({ 'x-api-key': 'sk-ant-two' })).not.toBe(anthropic);
    expect(credentialScope({ 'api-key': 'azure-key' })).toBe(credentialScope({ authorization: 'Bearer azure-key' }));
  });

  it('two SigV4 requests by one access key share a scope although each signature differs', () => {
    const signed = (signature: string) => ({ authorization: `AWS4-HMAC-SHA256 Credential=AKIASIMEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}` });
    expect(credentialScope(signed('aaaa'))).toBe(credentialScope(signed('bbbb')));
  });

  it('is empty without a credential (a keyless local server)', () => {
    expect(credentialScope({})).toBe('');
  });
});
