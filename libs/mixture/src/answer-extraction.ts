/**
 * Answer extraction for cascades: what a model answered, reduced to a form in which two answers
 * can be compared. Multiple choice → the option letter (or number); code → the code normalised
 * (comments and whitespace removed); anything else → the last number of the final line, or the
 * final line normalised.
 */
import { choiceOptions, codeScore } from './detectors';

export type AnswerKind = 'choice' | 'code' | 'text';

/** The kind of answer a prompt asks for. */
export function answerKindOf(prompt: string): AnswerKind {
  if (choiceOptions(prompt) >= 2) return 'choice';
  if (codeScore(prompt) >= 0.5) return 'code';
  return 'text';
}

const LEAD_LETTER = /^\s*(?:\*\*)?\(?([A-H])(?:\)|\.|:|\*\*|\s|$)/;
const STATED = /\b(?:answer|choice|option)\s*(?:is|:)?\s*(?:\*\*)?\(?([A-H])\b\)?/i;
const LONE_LETTER = /(?:^|\s)\(?([A-H])\)?[.\s]*$/;

/** The chosen option letter of a multiple-choice answer, or null. Numbers map to letters. */
export function extractChoice(response: string): string | null {
  const text = response.trim();
  if (text === '') return null;
  const lead = LEAD_LETTER.exec(text);
  if (lead) return lead[1] as string;
  const stated = STATED.exec(text);
  if (stated) return (stated[1] as string).toUpperCase();
  const lone = LONE_LETTER.exec(text.slice(-40));
  if (lone) return lone[1] as string;
  const num = /^\s*\(?([1-8])(?:\)|\.|:|\s|$)/.exec(text);
  if (num) return String.fromCharCode(64 + Number(num[1]));
  return null;
}

/** The code of an answer (fenced, `[PYTHON]` tagged, or from the first `def`/`function` on). */
export function extractCode(response: string): string | null {
  const fence = /```[\w+-]*\n([\s\S]*?)```/.exec(response);
  const tagged = /\[PYTHON\]([\s\S]*?)\[\/PYTHON\]/i.exec(response);
  let code = fence?.[1] ?? tagged?.[1];
  if (code === undefined) {
    const start = response.search(/^\s*(def |function |class |#include|public )/m);
    if (start < 0) return null;
    code = response.slice(start);
  }
  const normalised = code
    .replace(/("""|''')[\s\S]*?\1/g, '')
    .replace(/(^|\s)(#|\/\/).*$/gm, '$1')
    .replace(/\s+/g, ' ')
    .trim();
  return normalised === '' ? null : normalised;
}

/** The final line normalised, or its last number when it has one. */
export function extractFinal(response: string): string | null {
  const lines = response.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  const last = lines[lines.length - 1];
  if (last === undefined) return null;
  const nums = last.replace(/,(?=\d{3}\b)/g, '').match(/-?\d+(?:\.\d+)?/g);
  if (nums && nums.length > 0) return String(Number(nums[nums.length - 1]));
  const norm = last.toLowerCase().replace(/[^\p{L}\p{N}\s]/gu, '').replace(/\s+/g, ' ').trim();
  return norm === '' ? null : norm.slice(0, 200);
}

/** The comparable answer of a response, or null when none could be found. */
export function extractAnswer(response: string, kind: AnswerKind): string | null {
  if (kind === 'choice') return extractChoice(response);
  if (kind === 'code') return extractCode(response);
  return extractFinal(response);
}

/**
 * The small label used to look a cascade state up in the fitted tables: the letter itself for
 * multiple choice (models have letter biases worth knowing), `code`/`text` for an answer of
 * another kind, `-` for none.
 */
export function answerLabel(answer: string | null, kind: AnswerKind): string {
  if (answer === null) return '-';
  if (kind === 'choice') return answer;
  return kind;
}
