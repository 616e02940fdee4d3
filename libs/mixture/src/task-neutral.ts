/**
 * Task-neutral filler: words that say how to answer or how politely it is asked, not what the task
 * is — "step by step", "explain your reasoning", "You are a helpful assistant.", "Thanks!". Any
 * category's prompt can carry them, but MT-Bench's 80 questions carry them by chance: its one
 * "step-by-step" is in a roleplay question ("Act as a math teacher … step-by-step"), so "Prove that
 * the square root of 2 is irrational, step by step." read as roleplay while the plain proof read as
 * maths. The category classifier reads past these phrases, in training and at run time alike, as it
 * reads past function words, so a task worded with or without them has the same features.
 *
 * Phrases in cue-phrases.ts's notation (`words` tokens: "let's" is `let ' s`, "step-by-step" is
 * `step - by - step`). What a phrase asks for may still matter elsewhere: the difficulty signal
 * reads "step by step" as a request for a worked answer.
 */
import { compileCues, longestMatchAt } from './cue-phrases';

export const TASK_NEUTRAL_PHRASES: readonly string[] = [
  // How to answer.
  'step -? by -? step',
  'think|thinking|reason|reasoning|work|working|go|going step -? by -? step',
  "let ' s think|reason|work|go",
  'think|thinking carefully|hard',
  'explain|show|justify|describe your reasoning|thinking|work|working|steps|logic',
  'explain|show|justify|describe your thought process',
  'walk me? through your reasoning|thinking|work|working|steps|logic',
  'show|explain all|each|every the? step|steps|working',
  'show the work|working|reasoning',
  'and explain why|how',
  'take a deep breath',
  // Who is asked.
  'you are a|an helpful|friendly|honest|harmless|useful|smart|knowledgeable|capable? and? helpful|harmless|honest? ai? assistant|chatbot|bot',
  "you ' re a|an helpful|friendly|honest|harmless|useful|smart|knowledgeable|capable? and? helpful|harmless|honest? ai? assistant|chatbot|bot",
  'as an ai language? model|assistant',
  // How politely (function words to the classifier already; the length cue leaves them out too).
  'please|kindly',
  'can|could|would|will you please?',
  'thanks|thank|thx you? so|very? much?',
  'in advance',
  'much appreciated',
  "i would|' d? appreciate|like|love it? if? you? to?",
  'help me',
  'if possible',
  'if you can|could',
  "if you don|do '? t|not mind",
  'would you mind',
];

const COMPILED = compileCues([TASK_NEUTRAL_PHRASES]);

/** The word list whose matches `ends` holds (−1: not matched yet); one buffer, reused, so nothing is allocated per prompt. */
let memoWords: readonly string[] | undefined;
let ends = new Int32Array(0);

/**
 * Where task-neutral filler starting at word `at` ends (exclusive; `at` when none starts there).
 * The classifier and the difficulty signal read the same (memoised) word list of a prompt, so the
 * matches are kept for the last list: each position is matched once per decision.
 */
export function taskNeutralEnd(words: readonly string[], at: number): number {
  if (at >= words.length) return at;
  if (memoWords !== words) {
    memoWords = words;
    if (ends.length < words.length) ends = new Int32Array(Math.max(words.length, 2 * ends.length));
    ends.fill(-1, 0, words.length);
  }
  const known = ends[at] as number;
  if (known >= 0) return known;
  const end = longestMatchAt(COMPILED, words, at);
  ends[at] = end;
  return end;
}
