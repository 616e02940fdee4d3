import { createHmac } from 'node:crypto';
import { signBody, verifySignature } from './webhook-signature';

describe('webhook signatures', () => {
  const secret = 'whsec_test-secret-0123456789';
  const body = '{"event":"spend.daily","text":"Spend on 2026-11-28: $1.00 over 2 requests.","data":{},"id":"spend.daily:2026-11-28"}';

  it('is sha256= and the hex HMAC-SHA256 of the exact body with the secret', () => {
    expect(signBody(secret, body)).toBe(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    expect(signBody(secret, body)).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('verifies the signature of the same bytes, and nothing else', () => {
    const header = signBody(secret, body);
    expect(verifySignature(secret, body, header)).toBe(true);
    expect(verifySignature('another-secret-0123456789', body, header)).toBe(false);
    expect(verifySignature(secret, `${body} `, header)).toBe(false);
    expect(verifySignature(secret, body, header.toUpperCase())).toBe(false);
    expect(verifySignature(secret, body, 'sha256=')).toBe(false);
    expect(verifySignature(secret, body, undefined)).toBe(false);
  });

  it('signs non-ASCII text as its UTF-8 bytes', () => {
    const text = '{"text":"Équipe ‘recherche’ — 80 %"}';
    expect(signBody(secret, text)).toBe(`sha256=${createHmac('sha256', secret).update(Buffer.from(text, 'utf8')).digest('hex')}`);
  });
});
