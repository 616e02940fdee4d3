import { credentialAdvice, missingKeyMessage, preview, refusedKeyMessage } from './describe-credential';
import { generateApiKey } from './key-secret';

const OPENAI = {};
const ANTHROPIC = { headers: ['x-api-key'] };
const GEMINI = { headers: ['x-goog-api-key'], query: ['key'] };
const request = (headers: Record<string, string>) => ({ path: '/v1/chat/completions', headers, query: {} });

describe('credentialAdvice', () => {
  it("names the dialect's own places first, then every other place the route takes a key", () => {
    expect([OPENAI, ANTHROPIC, GEMINI].map((sources) => credentialAdvice(sources))).toEqual([
      'send it as Authorization: Bearer rsk_… (this route also takes the x-api-key header)',
      'send it in the x-api-key header (this route also takes Authorization: Bearer rsk_…)',
      'send it in the x-goog-api-key header or as ?key=rsk_… (this route also takes Authorization: Bearer rsk_… and the x-api-key header)',
    ]);
  });
});

describe('missingKeyMessage', () => {
  const { key } = generateApiKey();

  it('says an Authorization header came without the Bearer scheme, showing at most four characters of it', () => {
    const message = missingKeyMessage(request({ authorization: key }), OPENAI);
    expect(message).toBe('Missing API key: an Authorization header was received without the Bearer scheme (Authorization: rsk_…); expected Authorization: Bearer rsk_…');
    expect(message).not.toContain(key.slice(4, 16));
    expect(missingKeyMessage(request({ authorization: 'Basic dXNlcjpwYXNzd29yZA==' }), GEMINI)).toBe(
      'Missing API key: an Authorization header was received without the Bearer scheme (Authorization: Basi…); expected Authorization: Bearer rsk_…',
    );
    expect(missingKeyMessage(request({ authorization: 'short' }), OPENAI)).toBe(
      'Missing API key: an Authorization header was received without the Bearer scheme (Authorization: …); expected Authorization: Bearer rsk_…',
    );
  });

  it('tells a Bearer with nothing after it and an empty header apart from no key at all', () => {
    expect(missingKeyMessage(request({ authorization: 'Bearer ' }), OPENAI)).toBe('Missing API key: an Authorization header said Bearer with no key after it; expected Authorization: Bearer rsk_…');
    expect(missingKeyMessage(request({ 'x-goog-api-key': ' ' }), GEMINI)).toBe(
      'Missing API key: the x-goog-api-key header was received empty; send it in the x-goog-api-key header or as ?key=rsk_… (this route also takes Authorization: Bearer rsk_… and the x-api-key header)',
    );
    expect(missingKeyMessage(request({}), ANTHROPIC)).toBe('Missing API key: send it in the x-api-key header (this route also takes Authorization: Bearer rsk_…)');
  });
});

describe('refusedKeyMessage', () => {
  it('says which way a key is wrong without saying whether a well-formed key exists', () => {
    const { key } = generateApiKey();
    expect({
      unknown: refusedKeyMessage(key, 'invalid'),
      truncated: refusedKeyMessage(key.slice(0, -3), 'invalid'),
      openai: refusedKeyMessage('sk-proj-abcdefghijklmnopqrstuvwxyz', 'invalid'),
      anthropic: refusedKeyMessage('sk-ant-api03-abcdefghijklmnop', 'invalid'),
      google: refusedKeyMessage('AIzaSyAbcdefghijklmnopqrstuvwxyz', 'invalid'),
      adminToken: refusedKeyMessage('rat_0123456789abcdefghijklmnopqrstuv', 'invalid'),
      garbage: refusedKeyMessage('nonsense', 'invalid'),
      revoked: refusedKeyMessage(key, 'revoked'),
      expired: refusedKeyMessage(key, 'expired'),
    }).toEqual({
      unknown: 'Invalid API key: no key of this gateway matches it (mistyped, or issued by another gateway); create one in the dashboard (Keys) or with POST /admin/keys',
      truncated: 'Invalid API key: it starts with rsk_… but is not a whole key (rsk_, 12 letters or digits, _, 40 letters or digits: 57 characters; this one has 54); check that it was copied in full',
      openai: "Invalid API key: this is an OpenAI API key (sk-…); the gateway holds the providers' keys itself: call it with a gateway API key (rsk_…), create one in the dashboard (Keys) or with POST /admin/keys",
      anthropic: "Invalid API key: this is an Anthropic API key (sk-ant-…); the gateway holds the providers' keys itself: call it with a gateway API key (rsk_…), create one in the dashboard (Keys) or with POST /admin/keys",
      google: "Invalid API key: this is a Google API key (AIza…); the gateway holds the providers' keys itself: call it with a gateway API key (rsk_…), create one in the dashboard (Keys) or with POST /admin/keys",
      adminToken: 'Invalid API key: this is an admin token (rat_…), which signs in to the dashboard and the admin API; call models with an API key (rsk_…) created there',
      garbage: 'Invalid API key: not a gateway API key (expected rsk_ followed by 12 and 40 letters or digits); create one in the dashboard (Keys) or with POST /admin/keys',
      revoked: 'API key has been revoked: ask an admin for a new one',
      expired: 'API key has expired: ask an admin to extend it (expires_at) or for a new one',
    });
  });

  it('never shows more than four characters of a value', () => {
    expect([preview('rsk_AAAAAAAAAAAA_BBBB'), preview('abc')]).toEqual(['rsk_…', '…']);
  });
});
