import type { ExternalSpan, ExternalVerdict } from '@rosetta/guardrails';
import { MAX_WEBHOOK_SPANS, parseWebhookVerdict } from './webhook-verdict';

const BAD: ExternalVerdict = { action: 'unavailable', reason: 'bad_verdict' };
const TEXT = 'Mail jane@example.com or call +44 20 7946 0958 now.';

/** A deterministic generator, so a failing fuzz case can be replayed. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const answer = (value: unknown): string => JSON.stringify(value);

describe('parseWebhookVerdict: verdicts', () => {
  it('reads allow, block and redact', () => {
    expect(parseWebhookVerdict(answer({ action: 'allow' }), TEXT)).toEqual({ action: 'allow' });
    expect(parseWebhookVerdict(answer({ action: 'allow', spans: [] }), TEXT)).toEqual({ action: 'allow' });
    expect(parseWebhookVerdict(answer({ action: 'block' }), TEXT)).toEqual({ action: 'block', kinds: ['webhook'] });
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: [{ start: 5, end: 21, kind: 'email' }] }), TEXT)).toEqual({
      action: 'redact',
      spans: [{ start: 5, end: 21, kind: 'email' }],
    });
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: [] }), TEXT)).toEqual({ action: 'redact', spans: [] });
  });

  it('names a block by the kinds of its spans, each once, in text order', () => {
    const spans = [
      { start: 30, end: 46, kind: 'phone' },
      { start: 5, end: 21, kind: 'email' },
      { start: 47, end: 50, kind: 'phone' },
    ];
    expect(parseWebhookVerdict(answer({ action: 'block', spans }), TEXT)).toEqual({ action: 'block', kinds: ['email', 'phone'] });
  });

  it('ignores fields it does not name, so a service may add a score or a reason', () => {
    expect(parseWebhookVerdict(answer({ action: 'block', reason: 'policy 7', score: 0.97 }), TEXT)).toEqual({ action: 'block', kinds: ['webhook'] });
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: [{ start: 0, end: 4, kind: 'x', score: 1 }] }), TEXT)).toEqual({
      action: 'redact',
      spans: [{ start: 0, end: 4, kind: 'x' }],
    });
  });

  it('sorts spans and joins the overlapping ones (the earliest start names the joined span); touching spans stay apart', () => {
    const spans = [
      { start: 30, end: 40, kind: 'phone' },
      { start: 10, end: 21, kind: 'domain' },
      { start: 5, end: 15, kind: 'email' },
      { start: 35, end: 46, kind: 'number' },
      { start: 46, end: 50, kind: 'tail' },
    ];
    expect(parseWebhookVerdict(answer({ action: 'redact', spans }), TEXT)).toEqual({
      action: 'redact',
      spans: [
        { start: 5, end: 21, kind: 'email' },
        { start: 30, end: 46, kind: 'phone' },
        { start: 46, end: 50, kind: 'tail' },
      ],
    });
  });

  it.each<[unknown, string]>([
    ['EMAIL', 'email'],
    ['credit_card-2', 'credit_card-2'],
    ['a'.repeat(32), 'a'.repeat(32)],
    ['a'.repeat(33), 'webhook'],
    ['', 'webhook'],
    ['two words', 'webhook'],
    ['<script>', 'webhook'],
    ['REDACTED]secret[', 'webhook'],
    ['émail', 'webhook'],
    ['🙂', 'webhook'],
    [42, 'webhook'],
    [null, 'webhook'],
    [undefined, 'webhook'],
    [['email'], 'webhook'],
  ])('sanitises the kind %j to %j', (kind, expected) => {
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: [{ start: 0, end: 4, kind }] }), TEXT)).toEqual({
      action: 'redact',
      spans: [{ start: 0, end: 4, kind: expected }],
    });
  });

  it('widens a span that would split a surrogate pair, so a redaction never leaves half a character', () => {
    const text = 'a😀b😀c';
    // 'a' 0, 😀 1–2, 'b' 3, 😀 4–5, 'c' 6
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: [{ start: 2, end: 5, kind: 'emoji' }] }), text)).toEqual({
      action: 'redact',
      spans: [{ start: 1, end: 6, kind: 'emoji' }],
    });
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: [{ start: 3, end: 4, kind: 'b' }] }), text)).toEqual({
      action: 'redact',
      spans: [{ start: 3, end: 4, kind: 'b' }],
    });
  });

  it('takes -0 as 0 and accepts a span over the whole text', () => {
    expect(parseWebhookVerdict('{"action":"redact","spans":[{"start":-0,"end":51,"kind":"all"}]}', TEXT)).toEqual({
      action: 'redact',
      spans: [{ start: 0, end: TEXT.length, kind: 'all' }],
    });
  });

  it(`accepts ${MAX_WEBHOOK_SPANS} spans and refuses one more`, () => {
    const text = 'x'.repeat(MAX_WEBHOOK_SPANS + 1);
    const spans = (n: number) => Array.from({ length: n }, (_, i) => ({ start: i, end: i + 1, kind: 'x' }));
    const accepted = parseWebhookVerdict(answer({ action: 'redact', spans: spans(MAX_WEBHOOK_SPANS) }), text);
    expect(accepted).toEqual({ action: 'redact', spans: spans(MAX_WEBHOOK_SPANS) });
    expect(parseWebhookVerdict(answer({ action: 'redact', spans: spans(MAX_WEBHOOK_SPANS + 1) }), text)).toEqual(BAD);
  });
});

describe('parseWebhookVerdict: anything else is bad_verdict', () => {
  it.each<[string, string]>([
    ['empty body', ''],
    ['not JSON', 'allow'],
    ['truncated JSON', '{"action":"allow"'],
    ['NaN literal', '{"action":"redact","spans":[{"start":NaN,"end":3}]}'],
    ['a JSON string', '"allow"'],
    ['a JSON number', '1'],
    ['null', 'null'],
    ['an array', '[{"action":"allow"}]'],
    ['no action', '{"spans":[]}'],
    ['an unknown action', '{"action":"deny"}'],
    ['an action in capitals', '{"action":"ALLOW"}'],
    ['a numeric action', '{"action":1}'],
    ['spans not a list', '{"action":"redact","spans":{"start":0,"end":1}}'],
    ['spans null', '{"action":"redact","spans":null}'],
    ['a span that is not an object', '{"action":"redact","spans":[[0,1]]}'],
    ['a float offset', '{"action":"redact","spans":[{"start":0.5,"end":3}]}'],
    ['a negative offset', '{"action":"redact","spans":[{"start":-1,"end":3}]}'],
    ['an offset as a string', '{"action":"redact","spans":[{"start":"0","end":3}]}'],
    ['a missing end', '{"action":"redact","spans":[{"start":0}]}'],
    ['an empty span', '{"action":"redact","spans":[{"start":3,"end":3}]}'],
    ['a reversed span', '{"action":"redact","spans":[{"start":4,"end":3}]}'],
    ['an end past the text', `{"action":"redact","spans":[{"start":0,"end":${TEXT.length + 1}}]}`],
    ['an offset past 2^53', '{"action":"redact","spans":[{"start":0,"end":9007199254740993}]}'],
    ['an overflowing offset', '{"action":"redact","spans":[{"start":0,"end":1e400}]}'],
    ['an exponent offset past the text', '{"action":"redact","spans":[{"start":0,"end":1e3}]}'],
    ['a bad span beside an allow', '{"action":"allow","spans":[{"start":0,"end":1000}]}'],
    ['a bad span beside a block', '{"action":"block","spans":[{"start":-5,"end":1}]}'],
  ])('%s', (_name, body) => {
    expect(parseWebhookVerdict(body, TEXT)).toEqual(BAD);
  });

  it('answers a deeply nested body without throwing', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    expect(parseWebhookVerdict(deep, TEXT)).toEqual(BAD);
    const deepSpans = `{"action":"redact","spans":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseWebhookVerdict(deepSpans, TEXT)).toEqual(BAD);
  });
});

describe('parseWebhookVerdict: fuzzed answers', () => {
  const ACTIONS = ['allow', 'block', 'redact', 'deny', '', 'Allow'];
  const KINDS = ['email', 'EMAIL', 'x y', '', 'k'.repeat(40), '[REDACTED:x]', 'ñ', 7, null];

  function randomValue(next: () => number, depth: number): unknown {
    const pick = Math.floor(next() * (depth > 3 ? 5 : 8));
    switch (pick) {
      case 0:
        return null;
      case 1:
        return next() < 0.5;
      case 2:
        return [0, -1, 0.5, 1e308, -0, 3, 2 ** 53, Math.floor(next() * 80) - 10][Math.floor(next() * 8)];
      case 3:
        return ['', 'allow', 'block', 'redact', '💥', 'a\u0000b'][Math.floor(next() * 6)];
      case 4:
        return Math.floor(next() * 100);
      case 5:
        return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
      default: {
        const out: Record<string, unknown> = {};
        for (const key of ['action', 'spans', 'start', 'end', 'kind', 'extra']) if (next() < 0.4) out[key] = randomValue(next, depth + 1);
        return out;
      }
    }
  }

  function randomSpan(next: () => number, length: number): Record<string, unknown> {
    const start = Math.floor(next() * (length + 4)) - 2;
    const end = start + Math.floor(next() * 12) - 1;
    const span: Record<string, unknown> = { start: next() < 0.05 ? start + 0.5 : start, end };
    if (next() < 0.9) span.kind = KINDS[Math.floor(next() * KINDS.length)];
    return span;
  }

  /** What every answer must satisfy, whatever it was. */
  function expectWellFormed(verdict: ExternalVerdict, text: string): void {
    switch (verdict.action) {
      case 'allow':
        expect(verdict).toEqual({ action: 'allow' });
        return;
      case 'unavailable':
        expect(verdict).toEqual(BAD);
        return;
      case 'block':
        expect(verdict.kinds.length).toBeGreaterThan(0);
        for (const kind of verdict.kinds) expect(kind).toMatch(/^[a-z0-9_-]{1,32}$/);
        expect(new Set(verdict.kinds).size).toBe(verdict.kinds.length);
        return;
      case 'redact':
        expectSpansWellFormed(verdict.spans, text);
    }
  }

  function expectSpansWellFormed(spans: readonly ExternalSpan[], text: string): void {
    let previousEnd = -1;
    for (const span of spans) {
      expect(Number.isInteger(span.start) && Number.isInteger(span.end)).toBe(true);
      expect(span.start).toBeGreaterThanOrEqual(0);
      expect(span.start).toBeGreaterThanOrEqual(previousEnd);
      expect(span.end).toBeGreaterThan(span.start);
      expect(span.end).toBeLessThanOrEqual(text.length);
      expect(span.kind).toMatch(/^[a-z0-9_-]{1,32}$/);
      previousEnd = span.end;
    }
  }

  it('answers 3,000 random JSON values with a well-formed verdict, never a throw', () => {
    const next = seeded(31);
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(next, 0);
      expectWellFormed(parseWebhookVerdict(JSON.stringify(value) ?? '', TEXT), TEXT);
    }
  });

  it('answers 2,000 random span lists over unicode text: valid lists come back sorted and joined, others as bad_verdict', () => {
    const next = seeded(97);
    const text = 'Zoë 😀 née 北京 ' + TEXT;
    for (let i = 0; i < 2000; i++) {
      const spans = Array.from({ length: Math.floor(next() * 6) }, () => randomSpan(next, text.length));
      const action = ACTIONS[Math.floor(next() * ACTIONS.length)];
      const verdict = parseWebhookVerdict(answer({ action, spans }), text);
      expectWellFormed(verdict, text);
      const valid = spans.every((s) => Number.isInteger(s.start) && Number.isInteger(s.end) && (s.start as number) >= 0 && (s.start as number) < (s.end as number) && (s.end as number) <= text.length);
      if (!valid || !['allow', 'block', 'redact'].includes(action!)) expect(verdict).toEqual(BAD);
      else expect(verdict.action).toBe(action);
      if (verdict.action === 'redact') {
        // Every offered character is covered, and nothing past a surrogate pair's other half is added.
        for (const s of spans) {
          for (let at = s.start as number; at < (s.end as number); at++) expect(verdict.spans.some((v) => v.start <= at && at < v.end)).toBe(true);
        }
      }
    }
  });
});
