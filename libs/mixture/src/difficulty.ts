/**
 * How hard a prompt is, on the logit scale of the catalog profiles (model-profiles.ts): 0 is a
 * typical item of the benchmarks the profiles quote (an MMLU question, a HumanEval function),
 * negative is easier, positive harder. A model whose profile figure is p answers a prompt of
 * difficulty d acceptably with probability σ(logit(p) − d) (a one-parameter item-response model),
 * so on small talk (d ≈ −5) every model is near 1 and price decides, while on a proof (d ≈ +1)
 * the gaps between models open up and quality does.
 *
 * The estimate is a sum of cues read from the prompt — its length, small talk, the shape of a
 * simple question or a one-step task, and markers of hard work (proofs, derivations, concurrency,
 * systems and security, long code to review, many constraints, expert domains, long outputs) —
 * each with a fixed weight, so every decision can say which cues moved it. Like the other
 * detectors it reads at most the first 400 and last 1,600 characters.
 */
import { compileCues, countCuesHeadTail } from './cue-phrases';
import { detectorWindow } from './detectors';
import { taskNeutralEnd } from './task-neutral';
import { focusText, words } from './text-features';

export interface DifficultyInput {
  text: string;
  tokens: number;
  /** Code and maths detector scores (0..1). */
  code: number;
  math: number;
  /** The request offers tools (agentic work). */
  tools?: boolean;
}

export interface DifficultyEstimate {
  value: number;
  /** The cues that moved the estimate, e.g. `proof +1.5`. */
  cues: string[];
}

/** The estimate of a prompt with no cue at all (a short generic request). */
const BASE = -1;

const SMALL_TALK = /^\s*(h(i|ello|ey|owdy)|yo|greetings|good (morning|afternoon|evening|night)|thanks?( you)?|thank you( so much| very much)?|thx|ty|cheers|ok(ay)?|cool|great|nice|awesome|perfect|got it|bye|goodbye|see you|how are you( doing)?( today)?|what'?s up|who are you|lol|sure|yes|no)\b[\s\p{P}\p{Emoji_Presentation}]*([\p{L}' ,!.?-]{0,60})$/iu;
const SIMPLE_QUESTION = /^\s*(what|who|whom|when|where|which|whose|how (many|much|old|far|long|tall|big|do i|can i|to)|is|are|was|were|does|do|did|can|could|should|will|name|list|tell me)\b/i;
const SIMPLE_TASK =
  /^\s*(please\s+)?(translate|convert|define|spell|rephrase|paraphrase|reword|rewrite|fix (the |my )?(grammar|spelling|typos?)|proofread|capitali[sz]e|lowercase|uppercase|sort|alphabeti[sz]e|count|summari[sz]e|tl;?dr|classify|categori[sz]e|label|extract|pull out|turn (this|it|these)|format|recommend|suggest|give me (a|an|one|two|three|\d+)|tell me (a|an)|name (a|an|one|two|three|\d+)|pretend|act as|say|greet|write (me )?(a |an )?(haiku|limerick|tweet|slogan|tagline|caption|title|headline|short|quick|one[- ]line|two[- ]line|brief|friendly|polite|thank[- ]you|birthday)|(write|give me) (a |an )?(python |javascript |bash |sql |shell )?(one[- ]liner|regex|regular expression|command))\b/i;

/**
 * How a request may open without changing the task: a generic assistant persona, "please", "can
 * you …" before a request verb. The easy shapes above are read after it, so "Can you write a
 * haiku?" is the one-step task "Write a haiku" and not a yes/no question.
 */
const LEAD_IN =
  /^\s*(?:(?:you are|you're) (?:a|an) (?:[\w-]+,? ){0,3}(?:ai )?(?:assistant|chatbot|bot)\b[.!]?\s*)?(?:(?:please|kindly),?\s+|(?:can|could|would|will) you,?(?: please| kindly)?,?\s+(?=(?:write|prove|explain|tell|give|help|show|solve|calculate|compute|translate|convert|summari[sz]e|extract|list|name|create|generate|make|draft|compose|implement|fix|find|describe|pretend|act|rewrite|rephrase|reword|define|spell|sort|count|classify|recommend|suggest|say|greet|proofread|format|check|review)\b))?/i;

interface Cue {
  name: string;
  /** Phrases in cue-phrases.ts's notation. */
  phrases: string[];
  weight: number;
  /** Most this cue adds however often it matches. */
  cap: number;
  /** Marks hard work: the easy shapes (small talk, a simple question) no longer apply. */
  hard?: boolean;
}

const HARD_CUES: Cue[] = [
  {
    name: 'proof',
    hard: true,
    phrases: ['prove|proof|proving|theorem|lemma|corollary|derive|derivation|rigorous|rigorously|formally|impossibility', 'by induction', 'show that', 'if and only if'],
    weight: 1.5,
    cap: 1.5,
  },
  {
    name: 'advanced maths',
    hard: true,
    phrases: [
      'positive integer|integers', 'composite|divisib*|gcd|integral|integrate|eigen*|manifold|topolog*|isomorphi*|homomorphi*|modulo|congruen*|diophantine',
      'markov|martingale|zeta|asymptotic*|inequality|inequalities|combinatori*|bayes*|stochastic|lagrangian|hamiltonian|schrödinger|schrodinger|fourier|tensor',
      'infinitely many', 'prime factori*', 'group of order', 'differential equation|equations', 'expected value|number', 'laplace transform',
    ],
    weight: 0.6,
    cap: 1.2,
  },
  {
    name: 'analysis',
    hard: true,
    phrases: [
      'trade -? off|offs', 'tradeoff|tradeoffs|analyze|analyse|analysis|assess|justify|critique|critically|compare|contrast|criticism|criticisms|objection|objections',
      'argument|arguments for|against', 'strongest argument|arguments', 'evaluate the', 'pros and cons', 'root cause',
      'diagnose|diagnosis|systematic|systematically', 'in -? depth', 'deduce|deduction|deductions|puzzle|puzzles', 'walk me? through',
    ],
    weight: 0.5,
    cap: 1.5,
  },
  {
    name: 'design',
    hard: true,
    phrases: [
      'design a|an|the', 'architecture|schema|migrate|scalab*|idempoten*|protocol|rollback|downtime|cutover', 'migration plan', 'multi - tenant', 'high availability',
      'fault -? toleran*', 'consistent|consistency model', 'cut -? over', 'randomised|randomized controlled', 'power analysis', 'sample size',
    ],
    weight: 0.5,
    cap: 1.5,
  },
  {
    name: 'hard code',
    hard: true,
    phrases: [
      'concurren*|atomic|atomics|deadlock|deadlocks|mutex*|distributed|consensus|byzantine|kernel|cuda|simd|compiler|interpreter|parser|allocator|refactor*',
      'security|vulnerab*|exploit*|injection|performance|optimi*|complexity|oom*|profile|profiling|invariant|invariants',
      'lock - free', 'memory order|ordering|orders|orderings', 'race condition|conditions', 'thread - safe', 'garbage collect*', 'red - black', 'b - tree', 'persistent data',
      'timing leak|leaks|attack|attacks', 'big - o', 'o ( n', 'memory leak', 'property - based',
    ],
    weight: 0.6,
    cap: 1.8,
  },
  {
    name: 'build',
    hard: true,
    phrases: [
      'implement|build|write a|an|the full|complete|interpreter|compiler|parser|server|service|library|framework|engine|scheduler|database|queue|cache|tree|graph|system',
      'implement|build|write a|an|the small language', 'with unit? tests', 'with property - based tests', 'plus unit? tests',
    ],
    weight: 0.6,
    cap: 1.2,
  },
  {
    name: 'expert domain',
    hard: true,
    phrases: [
      'statute|statutes|enforceab*|jurisdiction|jurisdictions|liabilit*|clinical|diagnos*|dosage|pharmaco*|valuation|philosoph*|epistemolog*|metaphysic*|historiograph*|structuralis*',
      'thermodynamic*|quantum|relativistic', 'case law', 'moral realism', 'theory|theories of', 'graduate - level', 'bound state|states',
    ],
    weight: 0.5,
    cap: 1,
  },
  {
    name: 'long output',
    phrases: ['# , ### -? word|words', '### -? word|words', 'essay|report|whitepaper|comprehensive|detailed|thorough|thoroughly', 'white paper', 'in the style of', 'unreliable narrator'],
    weight: 0.5,
    cap: 1,
  },
  {
    name: 'constraints',
    phrases: ['must|exactly|avoid|ensure|preserv*|every', 'without using|any', 'at least|most', 'no more than', 'under|within #', 'keep the? behaviour|behavior', 'edge case|cases', 'each one'],
    weight: 0.2,
    cap: 0.8,
  },
];

const BRIEF = ['one sentence|word', 'one -? liner', 'a single word|sentence|line', 'briefly', 'in short', 'short answer', 'yes or no', 'two line|lines'];
/** Every cue list in one table, so the words are read once; the brief-answer list is the last. */
const CUES = compileCues([...HARD_CUES.map((c) => c.phrases), BRIEF]);
const BRIEF_INDEX = HARD_CUES.length;
/** Cues are read in the first 100 and the last 300 words (the instruction and the question of a long prompt). */
const CUE_HEAD_WORDS = 100;
const CUE_TAIL_WORDS = 300;

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Whitespace-separated words of a text, counted up to `max` (the easy shapes only ask "at most n?"). */
function countWords(text: string, max: number): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length && n < max; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/**
 * How many of the words read for cues (the first `head` and last `tail`) are task-neutral filler
 * ("step by step", "You are a helpful assistant.", "please", thanks): they lengthen a prompt
 * without lengthening its task, so the length cue leaves them out (about a token a word).
 */
function fillerWords(tokens: readonly string[], head: number, tail: number): number {
  let n = 0;
  const skipFrom = Math.min(head, tokens.length);
  const skipTo = Math.max(skipFrom, tokens.length - tail);
  for (let i = 0; i < tokens.length; i++) {
    if (i >= skipFrom && i < skipTo) i = skipTo;
    const end = taskNeutralEnd(tokens, i);
    if (end > i) {
      n += end - i;
      i = end - 1;
    }
  }
  return n;
}

/** The prompt's difficulty and the cues behind it. */
export function estimateDifficulty(input: DifficultyInput): DifficultyEstimate {
  const text = detectorWindow(input.text);
  // One pass over the words the classifier and the quality model split the prompt into.
  const tokens = words(focusText(input.text));
  const found = countCuesHeadTail(CUES, tokens, CUE_HEAD_WORDS, CUE_TAIL_WORDS);
  const cues: string[] = [];
  let d = BASE;
  const add = (name: string, w: number): void => {
    if (w === 0) return;
    d += w;
    cues.push(`${name} ${w > 0 ? '+' : ''}${round2(w)}`);
  };
  // The lead-in is short: match it on the opening characters, and slice (no copy of a long prompt).
  const leadIn = LEAD_IN.exec(input.text.slice(0, 200))?.[0].length ?? 0;
  const request = leadIn > 0 ? input.text.slice(leadIn) : input.text;
  const wordCount = countWords(request, 41);
  // Longer prompts carry more to get right: +0.9 per tenfold beyond 40 tokens, from −0.9 to +1.8.
  const taskTokens = Math.max(1, input.tokens - fillerWords(tokens, CUE_HEAD_WORDS, CUE_TAIL_WORDS));
  add('length', round2(Math.max(-0.9, Math.min(1.8, 0.9 * Math.log10(taskTokens / 40)))));
  let hard = 0;
  const hardCues: Array<[string, number]> = [];
  HARD_CUES.forEach((cue, i) => {
    const w = Math.min(cue.cap, (found[i] as number) * cue.weight);
    if (w > 0) {
      hardCues.push([cue.name, w]);
      if (cue.hard) hard += w;
    }
  });
  if (hard === 0 && wordCount <= 12 && SMALL_TALK.test(request)) {
    add('small talk', -3.5);
    return { value: round2(d), cues };
  }
  for (const [name, w] of hardCues) add(name, w);
  const codeLines = input.code >= 0.5 ? text.split('\n').filter((l) => /[;{}()=]|^\s*(def|class|if|for|while|return|import|from|fn|let|const|func)\b/.test(l)).length : 0;
  if (codeLines >= 6) add('code to read', codeLines >= 40 ? 1.5 : codeLines >= 15 ? 1.1 : 0.7);
  if (input.math >= 0.5) add('maths', 0.3);
  if (input.tools) add('agentic (tools offered)', 1);
  // The easy shapes only count when nothing marks the prompt as hard.
  if (hard < 0.6 && codeLines < 6) {
    if (wordCount <= 40 && SIMPLE_TASK.test(request)) add('one-step task', -1.3);
    else if (wordCount <= 25 && SIMPLE_QUESTION.test(request)) add('simple question', -1.3);
    if ((found[BRIEF_INDEX] as number) > 0) add('brief answer', -0.5);
  }
  return { value: round2(d), cues };
}
