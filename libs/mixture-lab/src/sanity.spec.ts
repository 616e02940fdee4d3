import { defaultArtefactPath, loadArtefact } from '@rosetta/mixture';
import { catalogCandidates, evaluateSanity, loadSanitySet, tierOf } from './sanity';

describe('the routing sanity set', () => {
  const prompts = loadSanitySet();

  it('holds 74 labelled prompts across the categories, with their long inputs attached', () => {
    expect(prompts).toHaveLength(74);
    expect(prompts.filter((p) => p.label === 'cheap')).toHaveLength(44);
    expect(new Set(prompts.map((p) => p.category).filter(Boolean))).toEqual(new Set(['writing', 'roleplay', 'reasoning', 'math', 'coding', 'extraction', 'stem', 'humanities']));
    expect(prompts.every((p) => !p.prompt.includes('{attach}') && p.why.length > 5)).toBe(true);
    expect(Math.max(...prompts.map((p) => p.prompt.length))).toBeGreaterThan(5000);
  });

  it('tiers models by completion price: $2.50 per million or less is cheap', () => {
    const pool = catalogCandidates();
    const tier = (id: string) => tierOf(pool.find((c) => c.id === id));
    expect(['rosetta/gpt-4o-mini', 'rosetta/gpt-4.1-mini', 'rosetta/gemini-2.5-flash-lite', 'rosetta/gemini-2.5-flash'].map(tier)).toEqual(['cheap', 'cheap', 'cheap', 'cheap']);
    expect(['rosetta/o4-mini', 'rosetta/claude-haiku-4-5', 'rosetta/claude-sonnet-4-5', 'rosetta/gemini-2.5-pro', 'rosetta/gpt-4.1'].map(tier)).toEqual(['strong', 'strong', 'strong', 'strong', 'strong']);
    // The built-in pool leaves out the open models served by Groq and Together.
    expect(pool.map((c) => c.id)).not.toContain('rosetta/llama-3.3-70b');
    expect(catalogCandidates(undefined, 'catalog').map((c) => c.id)).toContain('rosetta/llama-3.3-70b');
  });

  // Measured with the shipped artefact at its default knob: 73/74 (dev 44/44, holdout 29/30).
  it('rosetta/auto agrees with at least 90% of the labels at the default knob, on the dev and the holdout prompts alike', () => {
    const report = evaluateSanity(loadArtefact(defaultArtefactPath()), prompts, catalogCandidates());
    expect(report.agreement).toBeGreaterThanOrEqual(0.9);
    expect(report.by_split.dev.agreement).toBeGreaterThanOrEqual(0.9);
    expect(report.by_split.holdout.agreement).toBeGreaterThanOrEqual(0.9);
    expect(report.by_label.cheap.agreement).toBeGreaterThanOrEqual(0.9);
    expect(report.by_label.strong.agreement).toBeGreaterThanOrEqual(0.85);
    // The examples: a greeting, a capital city, a conversion and a regex go to the cheap tier,
    // and the category signal reads the last three right.
    const outcome = (id: string) => report.outcomes.find((o) => o.id === id);
    for (const id of ['s01', 's02', 's07', 's19', 's39']) expect(outcome(id)?.tier).toBe('cheap');
    expect(['s07', 's19', 's39'].map((id) => outcome(id)?.category.signal)).toEqual(['humanities', 'math', 'coding']);
    expect(report.category_accuracy).toBeGreaterThanOrEqual(0.75);
  });
});
