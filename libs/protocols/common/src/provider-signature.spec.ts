import { signatureFor, unwrapCallSignature, unwrapSignature, wrapCallSignature, wrapSignature } from './provider-signature';

describe('provider signatures across dialects', () => {
  it('leaves a native signature untouched', () => {
    expect(wrapSignature({ protocol: 'anthropic', value: 'EqQBabc==' }, 'anthropic')).toBe('EqQBabc==');
    expect(unwrapSignature('EqQBabc==', 'anthropic')).toEqual({ protocol: 'anthropic', value: 'EqQBabc==' });
  });

  it('round-trips a foreign signature with its origin', () => {
    const wrapped = wrapSignature({ protocol: 'gemini', value: 'CpcB/+x==' }, 'anthropic');
    expect(wrapped).toMatch(/^rosetta-sig\.gemini\./);
    expect(unwrapSignature(wrapped, 'anthropic')).toEqual({ protocol: 'gemini', value: 'CpcB/+x==' });
  });

  it('gives a signature only to the protocol that issued it', () => {
    expect(signatureFor({ protocol: 'gemini', value: 's' }, 'gemini')).toBe('s');
    expect(signatureFor({ protocol: 'gemini', value: 's' }, 'anthropic')).toBeUndefined();
    expect(signatureFor(undefined, 'gemini')).toBeUndefined();
  });

  it('marks a tool-call signature so it can be put back on its call', () => {
    const wrapped = wrapCallSignature({ protocol: 'gemini', value: 'CpcB/+x==' });
    expect(unwrapCallSignature(wrapped)).toEqual({ protocol: 'gemini', value: 'CpcB/+x==' });
    expect(unwrapCallSignature(wrapSignature({ protocol: 'gemini', value: 'CpcB' }, 'anthropic'))).toBeUndefined();
    expect(unwrapCallSignature('EqQBnative')).toBeUndefined();
  });
});
