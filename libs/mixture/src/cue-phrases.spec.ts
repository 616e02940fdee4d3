import { compileCues, countCues, coveredWords } from './cue-phrases';
import { words } from './text-features';

describe('cue phrases', () => {
  const cues = compileCues([
    ['prove|proof', 'show that', 'step -? by -? step'],
    ['concurren*', 'lock - free', 'o ( n'],
    ['# , ### -? word|words', 'under #'],
  ]);
  const count = (text: string) => countCues(cues, words(text));

  it('counts single words, phrases, optional hyphens and prefixes, once per starting word', () => {
    expect(count('Prove it, then show that the proof holds, step by step and step-by-step.')).toEqual([5, 0, 0]);
    expect(count('A lock-free, concurrent queue; concurrency bugs; lock free is not a phrase here. O(n log n).')).toEqual([0, 4, 0]);
  });

  it('matches number classes', () => {
    expect(count('Write 1,500 words, or a 2,000-word essay, in under 5 minutes; 3 words is not long.')).toEqual([0, 0, 3]);
  });

  it('refuses a phrase that starts with an optional token, and more cue lists than a bit set holds', () => {
    expect(() => compileCues([['-? step']])).toThrow(/required token/);
    expect(() => compileCues(Array.from({ length: 32 }, () => ['x']))).toThrow(/31/);
  });

  it('marks the words a phrase covers, longest match first, in one pass', () => {
    const filler = compileCues([['step -? by -? step', 'think step -? by -? step', 'thank you so|very? much']]);
    const covered = (text: string) => {
      const w = words(text);
      const mask = coveredWords(filler, w);
      return w.filter((_, i) => mask[i] === 1).join(' ');
    };
    expect(covered('Think step-by-step: prove it, step by step. Thank you very much!')).toEqual('think step - by - step step by step thank you very much');
    expect(covered('One step, then another step.')).toEqual('');
  });
});
