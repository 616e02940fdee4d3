import { describe, expect, it } from '@jest/globals';
import { cacheBodyOf, cacheDraftOf, cacheSummary, duration, promptSummary } from './cache-settings';

describe('cache settings in the dashboard forms', () => {
  it('reads a key\'s null as "inherit" and a plan\'s null as off, with the defaults ready to edit', () => {
    expect(cacheDraftOf(null, null, 'key')).toEqual({ mode: '', ttl: '3600', similarity: '0.95', prompt: '' });
    expect(cacheDraftOf(null, null, 'plan')).toEqual({ mode: 'off', ttl: '3600', similarity: '0.95', prompt: 'off' });
    expect(cacheDraftOf({ mode: 'semantic', ttl_s: 600, similarity: 0.9 }, 'auto', 'key')).toEqual({ mode: 'semantic', ttl: '600', similarity: '0.9', prompt: 'auto' });
  });

  it('sends what the form shows: null to inherit, off without a TTL, semantic with its similarity', () => {
    expect(cacheBodyOf({ mode: '', ttl: '3600', similarity: '0.95', prompt: '' })).toEqual({ cache: null, prompt_cache: null });
    expect(cacheBodyOf({ mode: 'off', ttl: '600', similarity: '0.9', prompt: 'off' })).toEqual({ cache: { mode: 'off' }, prompt_cache: 'off' });
    expect(cacheBodyOf({ mode: 'semantic', ttl: ' 600 ', similarity: '0.9', prompt: 'auto' })).toEqual({ cache: { mode: 'semantic', ttl_s: 600, similarity: 0.9 }, prompt_cache: 'auto' });
    // Exact keeps a similarity that parses (a later switch to semantic finds it), and drops one that does not.
    expect(cacheBodyOf({ mode: 'exact', ttl: '300', similarity: '0.9', prompt: '' })).toEqual({ cache: { mode: 'exact', ttl_s: 300, similarity: 0.9 }, prompt_cache: null });
    expect(cacheBodyOf({ mode: 'exact', ttl: '300', similarity: 'close', prompt: '' })).toEqual({ cache: { mode: 'exact', ttl_s: 300 }, prompt_cache: null });
  });

  it('leaves an empty TTL or similarity out for the gateway\'s default, and passes text that is no number on for the gateway to name', () => {
    expect(cacheBodyOf({ mode: 'semantic', ttl: '', similarity: '', prompt: '' }).cache).toEqual({ mode: 'semantic' });
    expect(cacheBodyOf({ mode: 'semantic', ttl: '1h', similarity: 'high', prompt: '' }).cache).toEqual({ mode: 'semantic', ttl_s: '1h', similarity: 'high' });
  });

  it('round-trips a stored setting unchanged, so an edit that touches nothing sends nothing', () => {
    const stored = { mode: 'exact' as const, ttl_s: 86_400, similarity: 0.95 };
    expect(cacheBodyOf(cacheDraftOf(stored, 'off', 'key'))).toEqual({ cache: stored, prompt_cache: 'off' });
  });

  it('says a setting in few characters', () => {
    expect([null, { mode: 'off' as const, ttl_s: 60, similarity: 0.95 }].map(cacheSummary)).toEqual(['Off', 'Off']);
    expect(cacheSummary({ mode: 'exact', ttl_s: 3600, similarity: 0.95 })).toBe('Exact, 1 h');
    expect(cacheSummary({ mode: 'semantic', ttl_s: 300, similarity: 0.9 })).toBe('Semantic ≥ 0.9, 5 min');
    expect([90, 120, 7200, 86_400, 2_592_000, 5400].map(duration)).toEqual(['90 s', '2 min', '2 h', '1 d', '30 d', '90 min']);
    expect([null, 'off', 'auto'].map((p) => promptSummary(p as 'off' | 'auto' | null))).toEqual(['Off', 'Off', 'Auto']);
  });
});
