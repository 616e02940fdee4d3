import type { ExternalVerdict, ModelCheck } from '@rosetta/guardrails';
import { parseModelCheckAnswer } from './model-check-verdict';

const BAD: ExternalVerdict = { action: 'unavailable', reason: 'bad_verdict' };
const guard: ModelCheck = { check: 'model', model: 'rosetta/llama-guard-3-8b', on: 'input', action: 'block' };
const rubric: ModelCheck = { check: 'model', model: 'rosetta/gpt-4o-mini', on: 'both', action: 'block' };

describe('parseModelCheckAnswer: Llama Guard', () => {
  it.each<[string, ExternalVerdict]>([
    ['safe', { action: 'allow' }],
    ['\n\nsafe', { action: 'allow' }],
    ['Safe\n', { action: 'allow' }],
    ['unsafe\nS1', { action: 'block', kinds: ['violent_crimes'] }],
    ['\n\nunsafe\nS2', { action: 'block', kinds: ['non_violent_crimes'] }],
    ['unsafe\r\nS1,S10', { action: 'block', kinds: ['violent_crimes', 'hate'] }],
    ['unsafe\ns11, S14', { action: 'block', kinds: ['self_harm', 'code_interpreter_abuse'] }],
    ['unsafe\nS1,S1', { action: 'block', kinds: ['violent_crimes'] }],
    ['unsafe\nS15', { action: 'block', kinds: ['s15'] }],
    ['unsafe', { action: 'block', kinds: ['unspecified'] }],
  ])('%j → %j', (answer, verdict) => {
    expect(parseModelCheckAnswer(answer, 'llama-guard', guard)).toEqual(verdict);
  });

  it.each([
    '',
    '   ',
    'The message is safe.',
    'safe\nS1',
    'unsafe\nS1\nS2',
    'unsafe\nviolence',
    'unsafe\nS1,',
    'unsafe\n,S1',
    'unsafe\nS1 S2',
    'unsafe\nS100',
    'unsafe: S1',
    'UNSAFE S1',
    'maybe',
    '{"safe":true}',
  ])('%j is bad_verdict', (answer) => {
    expect(parseModelCheckAnswer(answer, 'llama-guard', guard)).toEqual(BAD);
  });

  it('with categories, blocks only for the codes or names listed', () => {
    const some: ModelCheck = { ...guard, categories: ['S10', 'violent_crimes'] };
    expect(parseModelCheckAnswer('unsafe\nS1', 'llama-guard', some)).toEqual({ action: 'block', kinds: ['violent_crimes'] });
    expect(parseModelCheckAnswer('unsafe\nS2,S10', 'llama-guard', some)).toEqual({ action: 'block', kinds: ['hate'] });
    expect(parseModelCheckAnswer('unsafe\nS2', 'llama-guard', some)).toEqual({ action: 'allow' });
    expect(parseModelCheckAnswer('unsafe\nS2', 'llama-guard', { ...guard, categories: [' s2 '] })).toEqual({ action: 'block', kinds: ['non_violent_crimes'] });
    // An unsafe answer that names nothing cannot be filtered: it blocks.
    expect(parseModelCheckAnswer('unsafe', 'llama-guard', some)).toEqual({ action: 'block', kinds: ['unspecified'] });
  });
});

describe('parseModelCheckAnswer: rubric', () => {
  it('reads safe and the default categories', () => {
    expect(parseModelCheckAnswer('safe', 'rubric', rubric)).toEqual({ action: 'allow' });
    expect(parseModelCheckAnswer('unsafe\nviolence', 'rubric', rubric)).toEqual({ action: 'block', kinds: ['violence'] });
    expect(parseModelCheckAnswer('UNSAFE\nHate, self_harm\n', 'rubric', rubric)).toEqual({ action: 'block', kinds: ['hate', 'self_harm'] });
  });

  it('reads the check\'s own categories as listed, reporting each as a short identifier', () => {
    const own: ModelCheck = { ...rubric, categories: ['Medical advice', 'competitor,names', 'Ünicode topic', 'x'.repeat(40)] };
    expect(parseModelCheckAnswer('unsafe\nmedical advice', 'rubric', own)).toEqual({ action: 'block', kinds: ['medical_advice'] });
    expect(parseModelCheckAnswer('unsafe\ncompetitor names', 'rubric', own)).toEqual({ action: 'block', kinds: ['competitor_names'] });
    expect(parseModelCheckAnswer('unsafe\nÜnicode topic', 'rubric', own)).toEqual({ action: 'block', kinds: ['model'] });
    expect(parseModelCheckAnswer(`unsafe\n${'x'.repeat(40)}`, 'rubric', own)).toEqual({ action: 'block', kinds: ['model'] });
    expect(parseModelCheckAnswer('unsafe\nviolence', 'rubric', own)).toEqual(BAD);
  });

  it.each(['', 'unsafe\nS1', 'unsafe\nviolence,', 'unsafe\nviolence\nhate', 'safe.', 'Answer: safe', 'unsafe\nmurder'])('%j is bad_verdict', (answer) => {
    expect(parseModelCheckAnswer(answer, 'rubric', rubric)).toEqual(BAD);
  });
});
