import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { signBody } from './webhook-signature';

/** The guide's signature check, run as printed, against what the gateway sends. */
describe('docs/guide/alerts.md', () => {
  const guide = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'guide', 'alerts.md'), 'utf8');
  const block = /```js\n([\s\S]*?)```/.exec(guide)?.[1];

  it("verifies the gateway's signature and refuses anything else", () => {
    expect(block).toBeDefined();
    const sandbox: Record<string, unknown> = { require, Buffer };
    runInNewContext(`${block!}\nthis.verify = verifyRosettaSignature;`, sandbox);
    const verify = sandbox['verify'] as (raw: Buffer | string, header: unknown, secret: string) => boolean;
    const body = '{"event":"spend.daily","text":"Spend on 2026-11-28: $0 over 0 requests.","data":{},"id":"spend.daily:2026-11-28"}';
    const secret = 'a-long-random-secret-of-yours';
    expect(verify(Buffer.from(body), signBody(secret, body), secret)).toBe(true);
    expect(verify(body, signBody(secret, body), secret)).toBe(true);
    expect(verify(body, signBody('another-secret-altogether', body), secret)).toBe(false);
    expect(verify(`${body}\n`, signBody(secret, body), secret)).toBe(false);
    expect(verify(body, undefined, secret)).toBe(false);
  });
});
