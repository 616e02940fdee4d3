import { loadConfig } from './config';

describe('loadConfig', () => {
  it('reads opt-in model aliases and refuses malformed ones, naming MODEL_ALIASES', () => {
    expect(loadConfig({}).modelAliases).toEqual([]);
    expect(loadConfig({ MODEL_ALIASES: 'claude-opus-*=rosetta/claude-sonnet-4-5, gemini-2.5-pro=rosetta/gemini-2.5-flash' }).modelAliases).toEqual([
      { pattern: 'claude-opus-*', target: 'rosetta/claude-sonnet-4-5' },
      { pattern: 'gemini-2.5-pro', target: 'rosetta/gemini-2.5-flash' },
    ]);
    expect(() => loadConfig({ MODEL_ALIASES: 'claude-opus-*' })).toThrow(/^MODEL_ALIASES: each entry must be/);
    expect(() => loadConfig({ MODEL_ALIASES: 'gpt-4o=openai/gpt-4o' })).toThrow(/^MODEL_ALIASES: 'gpt-4o' must map to a rosetta\/\* model/);
    expect(() => loadConfig({ MODEL_ALIASES: 'a*b=rosetta/x' })).toThrow(/MODEL_ALIASES/);
  });

  it('keeps the ledger forever unless LEDGER_RETENTION_DAYS says otherwise, refusing less than a week', () => {
    expect(loadConfig({}).ledgerRetentionDays).toBeUndefined();
    expect(loadConfig({ LEDGER_RETENTION_DAYS: '400' }).ledgerRetentionDays).toBe(400);
    expect(() => loadConfig({ LEDGER_RETENTION_DAYS: '3' })).toThrow('LEDGER_RETENTION_DAYS: must be between 7 and 36500, got 3');
    expect(() => loadConfig({ LEDGER_RETENTION_DAYS: '90d' })).toThrow("LEDGER_RETENTION_DAYS: must be a whole number, got '90d'");
  });

  it('reads the first-byte watchdog, 0 turning it off', () => {
    expect(loadConfig({}).timeouts.fallbackFirstByteMs).toBe(15_000);
    expect(loadConfig({ UPSTREAM_FALLBACK_FIRST_BYTE_MS: '0' }).timeouts.fallbackFirstByteMs).toBe(0);
    expect(() => loadConfig({ UPSTREAM_FALLBACK_FIRST_BYTE_MS: 'soon' })).toThrow(/^UPSTREAM_FALLBACK_FIRST_BYTE_MS: must be a whole number/);
  });
});
