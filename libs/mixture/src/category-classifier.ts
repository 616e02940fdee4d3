/**
 * Prompt-category classifier: binarised multinomial naive Bayes over hashed word uni/bi-grams,
 * trained on MT-Bench's 80 first-turn questions (8 author-assigned categories) plus keyword
 * pseudo-documents per category (the "keyword priors"), so that prompts unlike the 80 questions
 * still land somewhere sensible. The fitted parameters travel in the artefact. Features are the
 * content words (function words dropped) and their adjacent pairs. α = 0.3 and a keyword weight
 * of 4 were picked from a 3×3 grid by leave-one-out accuracy on MT-Bench (0.70;
 * chance is 0.125).
 *
 * The fit stays beside the classifier because it is cheap and the live path needs it: signals
 * without an artefact classify with a classifier fitted on the keyword priors alone. Reading
 * MT-Bench and measuring accuracy are offline work, in @rosetta/mixture-lab (classifier-fit.ts).
 */
import { taskNeutralEnd } from './task-neutral';
import { fnv1a, fnvContinue, focusText, words } from './text-features';

/**
 * Function words carry no category but dominate short prompts: MT-Bench's maths questions start
 * with "What is the …", so with them "What is the capital of Australia?" read as maths.
 */
const STOP_WORDS = new Set(
  ('a an the is are was were be been being am do does did of in on at to for from by with about as into than then that this these those it its ' +
    'what which who whom whose when where why how can could should would will shall may might must i me my we our you your he she they them ' +
    'his her their and or but if so not no yes please tell give me us some any all each one').split(' '),
);

let contentMemo: { text: string; hashes: number[] } | undefined;

/** A token with a letter, a digit or `%` in it (words() makes punctuation tokens of their own). */
function isContent(w: string): boolean {
  if (w.length > 1) {
    for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) !== 95) return true;
    return false;
  }
  const c = w.charCodeAt(0);
  if (c < 0x80) return c === 37 || (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  return /[\p{L}\p{N}]/u.test(w);
}

/** The words the classifier reads of a long prompt: the first 100 and the last 300 (instruction and question). */
const HEAD_WORDS = 100;
const TAIL_WORDS = 300;

/**
 * Hashes of the content words of a text's focus and of their adjacent pairs (pair = hash of
 * "w1 w2"). Function words and task-neutral filler (task-neutral.ts) are read past, so "Prove it,
 * step by step." has the features of "Prove it."
 */
export function contentHashes(text: string): number[] {
  if (contentMemo && contentMemo.text === text) return contentMemo.hashes;
  const all = words(focusText(text));
  const hashes: number[] = [];
  let prev = -1;
  const tail = Math.max(HEAD_WORDS, all.length - TAIL_WORDS);
  for (let i = 0; i < all.length; i++) {
    if (i >= HEAD_WORDS && i < tail) {
      i = tail;
      prev = -1;
    }
    // Filler is skipped like a function word: the pair around it is the pair without it.
    const fillerEnd = taskNeutralEnd(all, i);
    if (fillerEnd > i) {
      i = fillerEnd - 1;
      continue;
    }
    const w = all[i] as string;
    if (STOP_WORDS.has(w) || !isContent(w)) continue;
    const h = fnv1a(w);
    hashes.push(h);
    if (prev >= 0) hashes.push(fnvContinue(fnvContinue(prev, ' '), w));
    prev = h;
  }
  contentMemo = { text, hashes };
  return hashes;
}

export const CATEGORIES = ['writing', 'roleplay', 'reasoning', 'math', 'coding', 'extraction', 'stem', 'humanities'] as const;

/** Keyword priors: each word is added to its category as `KEYWORD_WEIGHT` pseudo-occurrences. */
export const CATEGORY_KEYWORDS: Record<string, string[]> = {
  writing: [
    'write', 'compose', 'draft', 'essay', 'blog', 'post', 'story', 'short story', 'poem', 'haiku', 'limerick', 'sonnet', 'email', 'letter', 'message', 'rewrite', 'paragraph',
    'persuasive', 'creative', 'headline', 'slogan', 'tagline', 'caption', 'birthday', 'greeting card', 'polite', 'tone', 'grammar', 'spelling', 'proofread', 'synonyms',
    'antonym', 'plural', 'translate', 'translation', 'spanish', 'french', 'german', 'italian', 'japanese', 'chinese', 'into english', 'rephrase', 'paraphrase', 'name for',
    'joke', 'speech', 'toast', 'novel', 'narrator', 'in the style of', 'capitalize', 'sentence',
  ],
  roleplay: [
    'pretend', 'imagine yourself', 'act as', 'you are a', 'role', 'character', 'embrace the role', 'as if you', 'persona', 'in character', 'dialogue', 'speak like',
    'pirate', 'wizard', 'detective', 'roleplay', 'role-play', 'in the voice of', 'play the part', 'stay in character', 'imagine you are',
  ],
  reasoning: [
    'puzzle', 'riddle', 'logic', 'deduce', 'deduction', 'true or false', 'therefore', 'infer', 'most likely', 'who owns', 'lives next to', 'constraints', 'paradox',
    'brain teaser', 'if all', 'which of the following must', 'trade-offs', 'decision', 'choose between', 'correctness', 'counterexample', 'impossible', 'protocol',
    'deterministic', 'impossibility',
  ],
  math: [
    'calculate', 'solve', 'equation', 'integral', 'derivative', 'probability', 'number', 'numbers', 'sum', 'area', 'triangle', 'prime', 'integer', 'integers', 'value',
    'percent', '%', 'square root', 'convert', 'miles', 'kilometers', 'km', 'pounds', 'kilograms', 'fahrenheit', 'celsius', 'inches', 'feet', 'meters', 'liters', 'gallons',
    'plus', 'minus', 'times', 'divided', 'larger', 'smaller', 'average', 'fraction', 'multiply', 'prove', 'theorem', 'inequality', 'group of order', 'expected number',
    'coin', 'dice', 'slices', 'how many are left', 'positive real', 'composite',
  ],
  coding: [
    'function', 'python', 'code', 'program', 'implement', 'algorithm', 'array', 'list', 'string', 'return', 'class', 'sql', 'javascript', 'typescript', 'bug', 'write a function',
    'regex', 'regular expression', 'bash', 'shell', 'terminal', 'command line', 'command', 'script', 'one-liner', 'http', 'status code', 'api', 'rest', 'endpoint', 'database',
    'query', 'table called', 'git', 'docker', 'kubernetes', 'node.js', 'npm', 'rust', 'golang', 'java', 'c++', 'cuda', 'kernel', 'compile', 'compiler', 'interpreter', 'parser',
    'stack trace', 'exception', 'refactor', 'unit tests', 'debug', 'install', 'version', 'lock-free', 'queue', 'concurrency', 'service', 'module', 'pods', 'memory',
  ],
  extraction: [
    'extract', 'json', 'table', 'from the following', 'identify', 'list the', 'format', 'return the results', 'key', 'keys', 'named entities', 'csv', 'summarize', 'summary',
    'parse', 'output', 'classify', 'sentiment', 'review', 'positive or negative', 'fields', 'from this text', 'turn this into', 'email addresses', 'dates', 'every requirement',
    'answer as a table', 'tl;dr',
  ],
  stem: [
    'physics', 'chemistry', 'biology', 'science', 'energy', 'cell', 'reaction', 'force', 'quantum', 'plants', 'animals', 'earth', 'experiment', 'temperature', 'scientists',
    'planet', 'sun', 'moon', 'star', 'atom', 'molecule', 'element', 'chemical', 'symbol', 'boiling', 'freezing', 'water', 'dna', 'species', 'spider', 'insect', 'legs', 'fruit',
    'vegetable', 'cpu', 'computer', 'electricity', 'engine', 'heat', 'thermodynamics', 'gravity', 'light', 'drug', 'blood pressure', 'trial', 'medicine', 'disease', 'leap year',
  ],
  humanities: [
    'history', 'historical', 'philosophy', 'economics', 'culture', 'society', 'political', 'art', 'literature', 'ethics', 'religion', 'law', 'music', 'social', 'government',
    'policy', 'empire', 'war', 'century', 'why did', 'impact', 'moral', 'economy', 'capital', 'capital of', 'country', 'city', 'continent', 'population', 'president', 'king',
    'queen', 'wrote', 'author', 'novel', 'painter', 'revolution', 'year did', 'wall', 'time zone', 'define the word', 'meaning of', 'language', 'legal', 'court', 'statute',
    'enforceable', 'clause', 'contract', 'argument', 'realism',
  ],
};
const KEYWORD_WEIGHT = 4;

export interface ClassifierParams {
  bits: number;
  categories: string[];
  logPrior: number[];
  /** Buckets with a fitted weight, ascending. */
  buckets: number[];
  /** logLik[c][j]: log P(bucket j | category c). */
  logLik: number[][];
}

export interface LabelledText {
  text: string;
  category: string;
}

export interface CategoryResult {
  category: string;
  confidence: number;
  scores: Record<string, number>;
}

const CLASSIFIER_BITS = 16;
const ALPHA = 0.3;

/** Fits the classifier (Laplace α = 0.3, binarised counts, keyword pseudo-documents). */
export function fitCategoryClassifier(docs: LabelledText[], bits = CLASSIFIER_BITS): ClassifierParams {
  const categories = [...CATEGORIES] as string[];
  for (const d of docs) if (!categories.includes(d.category)) categories.push(d.category);
  const counts = categories.map(() => new Map<number, number>());
  const docCount = categories.map(() => 1);
  const addText = (c: number, text: string, weight: number): void => {
    const mask = (1 << bits) - 1;
    for (const k of new Set(contentHashes(text).map((h) => h & mask))) (counts[c] as Map<number, number>).set(k, ((counts[c] as Map<number, number>).get(k) ?? 0) + weight);
  };
  for (const d of docs) {
    const c = categories.indexOf(d.category);
    addText(c, d.text, 1);
    docCount[c] = (docCount[c] as number) + 1;
  }
  categories.forEach((cat, c) => {
    for (const kw of CATEGORY_KEYWORDS[cat] ?? []) addText(c, kw, KEYWORD_WEIGHT);
  });
  const all = new Set<number>();
  for (const m of counts) for (const k of m.keys()) all.add(k);
  const buckets = [...all].sort((a, b) => a - b);
  const vocab = buckets.length + 1;
  const totalDocs = docCount.reduce((a, b) => a + b, 0);
  const totals = counts.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
  return {
    bits,
    categories,
    logPrior: docCount.map((n) => Math.log(n / totalDocs)),
    buckets,
    logLik: counts.map((m, c) => buckets.map((k) => round4(Math.log(((m.get(k) ?? 0) + ALPHA) / ((totals[c] as number) + ALPHA * vocab))))),
  };
}

const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

const lookupTables = new WeakMap<ClassifierParams, Int32Array>();

/** bucket → position in `params.buckets` (−1: none), as a typed table built once per params. */
function lookupOf(params: ClassifierParams): Int32Array {
  let table = lookupTables.get(params);
  if (!table) {
    table = new Int32Array(1 << params.bits).fill(-1);
    params.buckets.forEach((b, i) => ((table as Int32Array)[b] = i));
    lookupTables.set(params, table);
  }
  return table;
}

/** Category and a tempered posterior probability as confidence. */
export function classifyCategory(params: ClassifierParams, text: string): CategoryResult {
  const lookup = lookupOf(params);
  const mask = (1 << params.bits) - 1;
  const seen = new Set<number>();
  const known: number[] = [];
  for (const h of contentHashes(text)) {
    const j = lookup[h & mask] as number;
    if (j >= 0 && !seen.has(j)) {
      seen.add(j);
      known.push(j);
    }
  }
  const logits = params.categories.map((_, c) => {
    const ll = params.logLik[c] as number[];
    let s = params.logPrior[c] as number;
    // Buckets never seen in training carry no evidence and are ignored.
    for (const j of known) s += ll[j] as number;
    return s;
  });
  const temperature = Math.max(1, Math.sqrt(known.length));
  const max = Math.max(...logits);
  const exps = logits.map((l) => Math.exp((l - max) / temperature));
  const z = exps.reduce((a, b) => a + b, 0);
  const scores: Record<string, number> = {};
  let best = 0;
  params.categories.forEach((cat, c) => {
    scores[cat] = (exps[c] as number) / z;
    if ((exps[c] as number) > (exps[best] as number)) best = c;
  });
  const category = params.categories[best] as string;
  return { category, confidence: scores[category] as number, scores };
}
