import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultArtefactPath, loadArtefact } from '@rosetta/mixture';
import { evaluatePhrasings, loadPhrasings } from './phrasings';
import { catalogCandidates } from './sanity';

describe('the phrasing set: a task reworded routes as the plain prompt', () => {
  const groups = loadPhrasings();

  it('holds maths, code, creative writing, roleplay, extraction and summarisation, each worded several ways', () => {
    expect(groups.map((g) => g.category)).toEqual(['math', 'math', 'coding', 'writing', 'roleplay', 'extraction', 'extraction', 'humanities', 'math', 'writing', 'coding', 'writing']);
    expect(groups.every((g) => g.variants.length >= 4)).toBe(true);
    const all = groups.flatMap((g) => g.variants).join('\n');
    for (const wording of ['step by step', 'Explain your reasoning', 'Please', 'Can you', 'You are a helpful assistant.', 'Thanks', 'PROVE THAT']) expect(all).toContain(wording);
  });

  it('gives every variant the category and the model of its plain prompt, and the plain prompt its labelled category', () => {
    const report = evaluatePhrasings(loadArtefact(defaultArtefactPath()), groups, catalogCandidates());
    expect(report.outcomes.map((o) => ({ id: o.id, category: o.plain.category, differing: o.differing }))).toEqual(groups.map((g) => ({ id: g.id, category: g.category, differing: [] })));
    expect(report.consistency).toBe(1);
    // The example: the proof goes to the same strong model, read as maths, with or without "step by step".
    expect(report.outcomes[0]?.plain).toEqual({ prompt: 'Prove that the square root of 2 is irrational.', category: 'math', chosen: 'rosetta/o4-mini' });
  });

  it('names the line of a malformed group', () => {
    const path = join(tmpdir(), `phrasings-${process.pid}.jsonl`);
    writeFileSync(path, '{"id":"x","category":"math","prompt":"p","variants":[]}\n');
    expect(() => loadPhrasings(path)).toThrow("phrasing set line 1: 'variants' must be a non-empty list of strings");
  });
});
