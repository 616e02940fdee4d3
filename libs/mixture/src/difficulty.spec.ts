import { estimateDifficulty } from './difficulty';
import { countPromptTokens } from './tokens';

describe('difficulty cues and the wording of a request', () => {
  // The cues other than length (which grows with any extra word, by 0.9 per tenfold).
  const cues = (text: string) => estimateDifficulty({ text, tokens: 12, code: 0, math: 0 }).cues.filter((c) => !c.startsWith('length'));

  it('reads the easy shapes after a generic persona, "please" or "can you" before a request verb', () => {
    const poem = ['Write a short poem about autumn leaves.', 'You are a helpful assistant. Write a short poem about autumn leaves.', 'Could you please write a short poem about autumn leaves?', 'Please write a short poem about autumn leaves.'];
    expect(poem.map(cues)).toEqual(poem.map(() => ['one-step task -1.3']));
    const capital = ['What is the capital of Australia?', 'You are a helpful assistant. What is the capital of Australia?', 'Can you tell me the capital of Australia?'];
    expect(capital.map(cues)).toEqual(capital.map(() => ['simple question -1.3']));
    // A yes/no question that opens with "can you" is not a request, and stays a simple question.
    expect(cues('Can you get a sunburn through a window?')).toEqual(['simple question -1.3']);
  });

  it('does not count "step by step" or "explain your reasoning" as hard work: they ask for a worked answer, not a harder task', () => {
    const fib = ['Write a Python function that returns the nth Fibonacci number.', 'Write a Python function that returns the nth Fibonacci number, step by step.', 'Write a Python function that returns the nth Fibonacci number. Explain your reasoning.'];
    expect(fib.map(cues)).toEqual(fib.map(() => []));
    expect(cues('Who owns the fish? Show the deduction step by step.')).toEqual(['analysis +0.5', 'simple question -1.3']);
  });

  it('leaves filler out of the length cue: a persona, thanks or "show your work step by step" move the estimate by at most 0.1', () => {
    const value = (text: string) => estimateDifficulty({ text, tokens: countPromptTokens(text).tokens, code: 0, math: 1 }).value;
    const plain = value('Solve for x: 3x + 5 = 20.');
    const reworded = ['You are a helpful AI assistant. Solve for x: 3x + 5 = 20.', 'Could you solve for x: 3x + 5 = 20? Thank you so much!', 'Solve for x: 3x + 5 = 20. Show your work step by step.'];
    expect(reworded.map((t) => ({ t, near: Math.abs(value(t) - plain) <= 0.1 }))).toEqual(reworded.map((t) => ({ t, near: true })));
  });
});
