import { headerSafe, writeRoutingHeaders } from './routing-headers';

describe('headerSafe', () => {
  it('spells the router’s symbols in ASCII and replaces anything else that is not', () => {
    expect(headerSafe('model=a; score=q − λ·cost → b; p ≥ 0.5…')).toBe('model=a; score=q - lambda.cost -> b; p >= 0.5...');
    expect(headerSafe('line\nbreak')).toBe('line?break');
    expect(headerSafe('x'.repeat(3000))).toHaveLength(2000);
  });
});

describe('writeRoutingHeaders', () => {
  it('writes every routing value through headerSafe, so a non-Latin-1 model id or slug cannot fail the answer', () => {
    const headers: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => void (headers[name] = value) } as unknown as Parameters<typeof writeRoutingHeaders>[0];
    writeRoutingHeaders(res, { model: 'rosetta/модель', provider: 'прокси', attempts: 1, warnings: [] } as unknown as Parameters<typeof writeRoutingHeaders>[1]);
    expect(headers).toEqual({ 'x-rosetta-model': 'rosetta/??????', 'x-rosetta-provider': '??????', 'x-rosetta-attempts': '1' });
  });
});
