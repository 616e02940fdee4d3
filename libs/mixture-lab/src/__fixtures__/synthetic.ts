/** Synthetic labelled rows for unit tests: two tasks, three models with known accuracy and price. */
import { mulberry32 } from '../rng';
import type { LabelledRow } from '@rosetta/mixture';

export const SYNTH_MODELS = ['cheap', 'mid', 'strong'];

const ACCURACY: Record<string, Record<string, number>> = {
  quiz: { cheap: 0.55, mid: 0.75, strong: 0.9 },
  code: { cheap: 0.3, mid: 0.6, strong: 0.7 },
};
const COST: Record<string, number> = { cheap: 0.0001, mid: 0.001, strong: 0.01 };

const QUIZ_TOPICS = ['plants', 'magnets', 'rocks', 'weather', 'stars', 'cells', 'energy', 'water'];
const CODE_TOPICS = ['reverse a list', 'sum digits', 'find primes', 'merge dictionaries', 'count vowels', 'sort tuples'];

function quizPrompt(i: number): string {
  const t = QUIZ_TOPICS[i % QUIZ_TOPICS.length] as string;
  return `Which statement about ${t} is true? (question ${i})\nA) one\nB) two\nC) three\nD) four\nAnswer:`;
}

function codePrompt(i: number): string {
  return `Write a python function to ${CODE_TOPICS[i % CODE_TOPICS.length]} (variant ${i}).`;
}

/** `n` rows per task, deterministic for a seed. Responses follow correctness (right letter = A). */
export function syntheticRows(n: number, seed = 1): LabelledRow[] {
  const rand = mulberry32(seed);
  const rows: LabelledRow[] = [];
  for (const task of ['quiz', 'code']) {
    for (let i = 0; i < n; i++) {
      const scores: Record<string, 0 | 1> = {};
      const costs: Record<string, number> = {};
      const responses: Record<string, string> = {};
      for (const m of SYNTH_MODELS) {
        const ok = rand() < (ACCURACY[task]?.[m] as number) ? 1 : 0;
        scores[m] = ok;
        costs[m] = (COST[m] as number) * (0.8 + 0.4 * rand());
        responses[m] = task === 'quiz' ? (ok ? 'A' : (['B', 'C', 'D'][Math.floor(rand() * 3)] as string)) : ok ? '```python\ndef f(x):\n    return x\n```' : 'I cannot help.';
      }
      rows.push({ prompt: task === 'quiz' ? quizPrompt(i) : codePrompt(i), task, scores, costs, responses });
    }
  }
  return rows;
}
