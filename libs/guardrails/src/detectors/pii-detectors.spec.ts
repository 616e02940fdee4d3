import { cardDetector } from './detect-card';
import { emailDetector } from './detect-email';
import { ibanDetector } from './detect-iban';
import { ipv4Detector } from './detect-ipv4';
import { ipv6Detector } from './detect-ipv6';
import { phoneDetector } from './detect-phone';
import { ssnDetector } from './detect-ssn';
import { spans } from './detector-test-support';

describe('email', () => {
  it('finds addresses and leaves near misses', () => {
    const text = 'Write to john.doe+work@mail.example.co.uk. Or a@b.io, not user@localhost, @handle, x@y.c, a@-bad.com or foo@bar..com';
    expect(spans(emailDetector, text)).toEqual([
      { kind: 'email', text: 'john.doe+work@mail.example.co.uk' },
      { kind: 'email', text: 'a@b.io' },
    ]);
  });

  it('refuses a local part over 64 characters', () => {
    expect(spans(emailDetector, `${'a'.repeat(65)}@example.com ${'b'.repeat(64)}@example.com`)).toEqual([{ kind: 'email', text: `${'b'.repeat(64)}@example.com` }]);
  });
});

describe('phone', () => {
  it('finds international, North American and trunk-prefixed national numbers', () => {
    const text = 'Call +1 (415) 555-2671, +442079460958, (212) 555-0100, 1-800-555-0199, 020 7946 0958 or 06 12 34 56 78.';
    expect(spans(phoneDetector, text)).toEqual([
      { kind: 'phone', text: '+1 (415) 555-2671' },
      { kind: 'phone', text: '+442079460958' },
      { kind: 'phone', text: '(212) 555-0100' },
      { kind: 'phone', text: '1-800-555-0199' },
      { kind: 'phone', text: '020 7946 0958' },
      { kind: 'phone', text: '06 12 34 56 78' },
    ]);
  });

  it('leaves dates, versions, bare numbers, short international numbers and bad area codes', () => {
    const text = 'On 2024-01-15 v1.2.3 order 4155552671 paid +1234567; (123) 555-0100 and 555-0100 and 12:30 and 3.14159';
    expect(spans(phoneDetector, text)).toEqual([]);
  });
});

describe('card', () => {
  it('finds Luhn-valid numbers, grouped or solid', () => {
    const text = 'Visa 4111 1111 1111 1111, MC 5500-0000-0000-0004, Amex 378282246310005, 13-digit 4222222222222.';
    expect(spans(cardDetector, text)).toEqual([
      { kind: 'card', text: '4111 1111 1111 1111' },
      { kind: 'card', text: '5500-0000-0000-0004' },
      { kind: 'card', text: '378282246310005' },
      { kind: 'card', text: '4222222222222' },
    ]);
  });

  it('leaves invalid Luhn, mixed separators, repeated digits, wrong lengths and numbers inside words', () => {
    const text = '4111 1111 1111 1112 4111-1111 1111 1111 0000000000000000 4111111111111111111111 id4111111111111111 411111111111';
    expect(spans(cardDetector, text)).toEqual([]);
  });
});

describe('iban', () => {
  it('finds IBANs with a valid mod-97 check, solid or in groups of four', () => {
    const text = 'Pay DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432, FR1420041010050500013M02606.';
    expect(spans(ibanDetector, text)).toEqual([
      { kind: 'iban', text: 'DE89 3704 0044 0532 0130 00' },
      { kind: 'iban', text: 'GB82WEST12345698765432' },
      { kind: 'iban', text: 'FR1420041010050500013M02606' },
    ]);
  });

  it('leaves a wrong check digit, a wrong length, an unknown country and odd grouping', () => {
    const text = 'DE88 3704 0044 0532 0130 00, DE893704004405320130001, GB82WEST1234569876543, ZZ89370400440532013000, DE89 370 40044 0532 0130 00';
    expect(spans(ibanDetector, text)).toEqual([]);
  });
});

describe('ssn', () => {
  it('finds dashed or spaced numbers that follow the SSA rules', () => {
    expect(spans(ssnDetector, 'SSN 123-45-6789 or 078 05 1120.')).toEqual([
      { kind: 'ssn', text: '123-45-6789' },
      { kind: 'ssn', text: '078 05 1120' },
    ]);
  });

  it('leaves area 000, 666 and 9xx, group 00, serial 0000, bare and mixed forms', () => {
    expect(spans(ssnDetector, '000-12-3456 666-12-3456 912-12-3456 123-00-4567 123-45-0000 123456789 123-45 6789 1123-45-6789')).toEqual([]);
  });
});

describe('ip', () => {
  it('finds IPv4 and IPv6 addresses', () => {
    const text = 'Hosts 192.168.0.1, 8.8.8.8 and 2001:db8:85a3::8a2e:370:7334, ::1, fe80::1 and ::ffff:192.0.2.128.';
    expect(spans([ipv4Detector, ipv6Detector], text)).toEqual([
      { kind: 'ip', text: '192.168.0.1' },
      { kind: 'ip', text: '8.8.8.8' },
      { kind: 'ip', text: '2001:db8:85a3::8a2e:370:7334' },
      { kind: 'ip', text: '::1' },
      { kind: 'ip', text: 'fe80::1' },
      { kind: 'ip', text: '::ffff:192.0.2.128' },
    ]);
  });

  it('leaves octets over 255, leading zeros, version strings, clock times and MAC addresses', () => {
    const text = '256.1.1.1 01.2.3.4 1.2.3.4.5 1.2.3 12:30:45 00:1a:2b:3c:4d:5e 1::2::3 12345::1';
    expect(spans([ipv4Detector, ipv6Detector], text)).toEqual([]);
  });
});
