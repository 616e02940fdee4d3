import { scanGuardrails } from './guardrail-engine';
import { StreamingRedactor } from './streaming-redactor';
import { chunked, compiledPolicy as guardrails, seeded as random } from './guardrails-test-support';

function streamed(policy: ReturnType<typeof guardrails>, chunks: string[]): { text: string; redactor: StreamingRedactor } {
  const redactor = new StreamingRedactor(policy);
  let text = '';
  for (const chunk of chunks) text += redactor.push(chunk).text;
  return { text: text + redactor.flush().text, redactor };
}

const FRAGMENTS = [
  'plain prose about the weather. ',
  'mail john.doe@example.com ',
  'x@y ',
  '@@ a@b.co. ',
  'call +1 (415) 555-2671 ',
  '020 7946 0958 ',
  'card 4111 1111 1111 1111 ',
  '4111 1111 1111 1112 ',
  'IBAN DE89 3704 0044 0532 0130 00 ',
  'ssn 123-45-6789 ',
  'ip 10.0.0.1 and fe80::1 ',
  'AKIAIOSFODNN7EXAMPLE ',
  'sk-proj-abcdefghijklmnopqrstuvwxyz0123 ',
  'Authorization: Bearer abcdefghijklmnop1234 ',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV ',
  '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY----- ',
  'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ',
  'ticket PRJ-1234 and prj-99 ',
  '12345678901234567890 ',
  '-----BEGIN ',
  // Pieces that become findings only with their neighbours, so a finding's end or start lands
  // anywhere in a chunk and held-back runs meet the text that decides them.
  'john.doe',
  '@',
  'example.com',
  '.',
  '4111 1111 ',
  '1111 1111',
  '+44 20 ',
  '7946 0958',
  '(415) ',
  '555-2671',
  '10.0.',
  '0.1',
  'fe80:',
  ':1',
  'DE89 3704 ',
  '0044 0532 0130 00',
  '123-45-',
  '6789',
  'aws_secret_',
  'access_key=',
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'x',
  ' ',
  '-',
];

const REDACT_ALL = [
  { check: 'pii', on: 'output', action: 'redact' },
  { check: 'secrets', on: 'both', action: 'redact' },
  { check: 'regex', on: 'output', action: 'redact', patterns: [{ pattern: '\\bprj-\\d{2,4}\\b', name: 'ticket' }], ignore_case: true },
];

describe('StreamingRedactor', () => {
  it('gives the one-shot redaction for any chunking of random texts', () => {
    const policy = guardrails(REDACT_ALL);
    const next = random(7);
    for (let round = 0; round < 600; round += 1) {
      const text = Array.from({ length: 1 + Math.floor(next() * 16) }, () => FRAGMENTS[Math.floor(next() * FRAGMENTS.length)]).join('');
      const oneShot = scanGuardrails(text, policy, 'output');
      const { text: out, redactor } = streamed(policy, chunked(text, next, 1 + Math.floor(next() * 40)));
      expect(out).toEqual(oneShot.redacted ?? text);
      expect(redactor.verdicts()).toEqual(oneShot.verdicts);
    }
  });

  it('holds back only the trailing run that could still become a finding', () => {
    const redactor = new StreamingRedactor(guardrails(REDACT_ALL.slice(0, 2)));
    // After plain words only the last space (a card's separator) and two characters of look-behind wait.
    const words = 'word '.repeat(20);
    expect(redactor.push(words)).toEqual({ text: words.slice(0, -3) });
    // A run of digits and separators may yet become a card, a phone number or an address: held whole.
    expect(redactor.push('call 415 555')).toEqual({ text: 'rd ca' });
    // A letter decides it (no finding); then a word waits, since an `@` could make it an email's local part.
    expect(redactor.push(' 2671x ok')).toEqual({ text: 'll 415 555 2671' });
    expect(redactor.push(' mail jo')).toEqual({ text: 'x ok mai' });
    // An `@` right before the end keeps its local part held until the domain ends.
    expect(redactor.push('hn@example.co')).toEqual({ text: '' });
    expect(redactor.push('m. Thanks')).toEqual({ text: 'l [REDACTED:email]' });
    expect(redactor.flush()).toEqual({ text: '. Thanks' });
  });

  it('releases ordinary chunks about a word behind, scanning as they come', () => {
    const redactor = new StreamingRedactor(guardrails(REDACT_ALL.slice(0, 2)));
    const steps = ['Hello', ' there,', ' how', ' can', ' I', ' help?'].map((chunk) => redactor.push(chunk).text);
    // Two characters (" I") are too few to be worth a rescan yet; the next chunk releases them.
    expect(steps).toEqual(['', 'Hello ther', 'e', ', ho', '', 'w can I hel']);
  });

  it('passes text straight through when no check runs on output', () => {
    const redactor = new StreamingRedactor(guardrails([{ check: 'pii', on: 'input', action: 'block' }]));
    expect([redactor.push('a@b.co '), redactor.push('x'), redactor.flush()]).toEqual([{ text: 'a@b.co ' }, { text: 'x' }, { text: '' }]);
  });

  it('stops at the chunk that completes the first violation, having sent none of it', () => {
    const policy = guardrails([{ check: 'secrets', on: 'output', action: 'block' }]);
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const text = `${'Here is some harmless preamble. '.repeat(6)}the key is ${key} and more text after it. ${'tail '.repeat(30)}`;
    const keyEnd = text.indexOf(key) + key.length;
    const next = random(11);
    for (let round = 0; round < 50; round += 1) {
      const chunks = chunked(text, next, 24);
      const redactor = new StreamingRedactor(policy);
      let sent = '';
      let blocked;
      for (const chunk of chunks) {
        const step = redactor.push(chunk);
        sent += step.text;
        blocked ??= step.blocked;
      }
      blocked ??= redactor.flush().blocked;
      let end = 0;
      const violatingChunk = chunks.findIndex((chunk) => (end += chunk.length) >= keyEnd);
      expect(blocked).toEqual({ check: 'secrets', index: 0, chunk: violatingChunk });
      expect(text.startsWith(sent) && sent.length <= text.indexOf(key)).toBe(true);
      expect(redactor.verdicts()).toEqual([{ check: 'secrets', index: 0, stage: 'output', action: 'block', kinds: ['aws_access_key'] }]);
    }
  });

  it('does bounded work per character however small the chunks', () => {
    const policy = guardrails(REDACT_ALL);
    const text = FRAGMENTS.join('').repeat(5);
    const redactor = new StreamingRedactor(policy);
    for (const chunk of text.match(/[\s\S]{1,3}/g) ?? []) redactor.push(chunk);
    redactor.flush();
    const oneShot = { steps: 0 };
    scanGuardrails(text, policy, 'output', oneShot);
    expect(redactor.meter.steps).toBeLessThan(oneShot.steps * 60);
  });
});
