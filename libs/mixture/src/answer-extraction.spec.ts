import { answerKindOf, extractChoice, extractCode, extractFinal } from './answer-extraction';

describe('answer extraction', () => {
  it('reads option letters in their usual shapes', () => {
    expect(extractChoice('B')).toBe('B');
    expect(extractChoice('C\n')).toBe('C');
    expect(extractChoice('(D) because of iron')).toBe('D');
    expect(extractChoice('A) dry palms')).toBe('A');
    expect(extractChoice('The answer is B.')).toBe('B');
    expect(extractChoice('After thinking, I pick: C')).toBe('C');
    expect(extractChoice('2) second option')).toBe('B');
    expect(extractChoice('I do not have enough information.')).toBeNull();
    expect(extractChoice('Based on the passage, hard to say')).toBeNull();
  });

  it('normalises code so that formatting and comments do not matter', () => {
    const a = 'Here you go:\n```python\ndef f(x):\n    # double it\n    return x * 2\n```\nThis works.';
    const b = '[PYTHON]\ndef f(x):\n  return x * 2  # twice\n[/PYTHON]';
    expect(extractCode(a)).toBe('def f(x): return x * 2');
    expect(extractCode(b)).toBe(extractCode(a));
    expect(extractCode('I cannot write that.')).toBeNull();
  });

  it('reads final answers and the kind of answer a prompt wants', () => {
    expect(extractFinal('Step 1: 3 + 4 = 7\nSo the total is 1,234 apples.')).toBe('1234');
    expect(extractFinal('The capital is Paris!')).toBe('the capital is paris');
    expect(answerKindOf('Which one?\nA) x\nB) y')).toBe('choice');
    expect(answerKindOf('Write a python function to add two numbers.')).toBe('code');
    expect(answerKindOf('What is 2 + 2?')).toBe('text');
  });
});
