import { awsSecretKeyDetector } from './detect-aws-secret-key';
import { bearerTokenDetector } from './detect-bearer-token';
import { jwtDetector } from './detect-jwt';
import { privateKeyDetector } from './detect-private-key';
import { secretTokensDetector } from './detect-secret-tokens';
import { spans } from './detector-test-support';

const body = (length: number, alphabet = 'aB3'): string => alphabet.repeat(Math.ceil(length / alphabet.length)).slice(0, length);

describe('prefixed provider keys', () => {
  it('finds each provider format by its prefix', () => {
    const keys = [
      ['aws_access_key', 'AKIAIOSFODNN7EXAMPLE'],
      ['aws_access_key', 'ASIA' + 'Z'.repeat(16)],
      ['anthropic_key', `sk-ant-api03-${body(90)}`],
      ['openai_key', `sk-proj-${body(48)}`],
      ['openai_key', `sk-${body(48)}`],
      ['google_api_key', `AIza${body(35)}`],
      ['github_token', `ghp_${body(36)}`],
      ['github_token', `github_pat_11ABCDEFG_${body(60)}`],
      ['slack_token', 'xoxb-123456789012-abcdefABCDEF'],
      ['stripe_key', `sk_live_${body(24)}`],
    ];
    const text = keys.map(([, key]) => `key: ${key}`).join('\n');
    expect(spans(secretTokensDetector, text)).toEqual(keys.map(([kind, key]) => ({ kind, text: key })));
  });

  it('leaves prefixes inside words, short bodies and over-long runs', () => {
    const text = `task-${body(30)} sk-short AKIAIOSFODNN7EXAMPL AKIAIOSFODNN7EXAMPLEX ghp_${body(35)} risk-${body(40)} AIza${body(36)} xAKIAIOSFODNN7EXAMPLE`;
    expect(spans(secretTokensDetector, text)).toEqual([]);
  });
});

describe('aws secret key', () => {
  it('finds the 40-character key after its name', () => {
    const text = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\nAWS_SECRET_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"';
    expect(spans(awsSecretKeyDetector, text)).toEqual([
      { kind: 'aws_secret_key', text: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
      { kind: 'aws_secret_key', text: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
    ]);
  });

  it('leaves a 40-character string without the name, and a wrong length after it', () => {
    expect(spans(awsSecretKeyDetector, 'token wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKE')).toEqual([]);
  });
});

describe('private key blocks', () => {
  it('finds a block from BEGIN to END, and a truncated block to its bound', () => {
    const block = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----';
    const open = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA';
    expect(spans(privateKeyDetector, `before\n${block}\nafter\n${open}`)).toEqual([
      { kind: 'private_key', text: block },
      { kind: 'private_key', text: open },
    ]);
  });

  it('leaves public keys and certificates', () => {
    expect(spans(privateKeyDetector, '-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY----- -----BEGIN CERTIFICATE-----')).toEqual([]);
  });
});

describe('bearer tokens and JWTs', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

  it('finds the token after Bearer', () => {
    expect(spans(bearerTokenDetector, 'Authorization: Bearer abc123DEF456ghi789 and authorization: bearer  x-y_z.1234567890ab')).toEqual([
      { kind: 'bearer_token', text: 'abc123DEF456ghi789' },
      { kind: 'bearer_token', text: 'x-y_z.1234567890ab' },
    ]);
  });

  it('leaves short tokens and the word inside another', () => {
    expect(spans(bearerTokenDetector, 'Bearer short, the bearer of news, forbearer abcdefghijklmnopqrstuvwxyz')).toEqual([]);
  });

  it('finds JWTs and leaves look-alikes', () => {
    expect(spans(jwtDetector, `token=${jwt}; eyJhbGciOiJIUzI1NiJ9.notjson.sig xeyJ${jwt.slice(3)}`)).toEqual([{ kind: 'jwt', text: jwt }]);
  });
});
