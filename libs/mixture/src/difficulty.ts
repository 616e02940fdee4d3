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
import { detectorWindow } from './detectors';

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
const SIMPLE_QUESTION = /^\s*(what|who|whom|when|where|which|whose|how (many|much|old|far|long|tall|big|do i|can i|to)|is|are|was|were|does|do|did|can|could|should|will|name|list)\b/i;
const SIMPLE_TASK =
  /^\s*(please\s+)?(translate|convert|define|spell|rephrase|paraphrase|reword|rewrite|fix (the |my )?(grammar|spelling|typos?)|proofread|capitali[sz]e|lowercase|uppercase|sort|alphabeti[sz]e|count|summari[sz]e|tl;?dr|classify|categori[sz]e|label|extract|pull out|turn (this|it|these)|format|recommend|suggest|give me (a|an|one|two|three|\d+)|tell me (a|an)|name (a|an|one|two|three|\d+)|pretend|act as|say|greet|write (me )?(a |an )?(haiku|limerick|tweet|slogan|tagline|caption|title|headline|short|quick|one[- ]line|two[- ]line|brief|friendly|polite|thank[- ]you|birthday)|(write|give me) (a |an )?(python |javascript |bash |sql |shell )?(one[- ]liner|regex|regular expression|command))\b/i;
const BRIEF = /\b(one sentence|one[- ]liner|one word|a single (word|sentence|line)|briefly|in short|short answer|yes or no|two lines?)\b/i;

interface Cue {
  name: string;
  re: RegExp;
  weight: number;
  /** Most this cue adds however often it matches. */
  cap: number;
  /** Marks hard work: the easy shapes (small talk, a simple question) no longer apply. */
  hard?: boolean;
}

const HARD_CUES: Cue[] = [
  { name: 'proof', hard: true, re: /\b(prove|proof|proving|theorem|lemma|corollary|derive|derivation|rigorous(ly)?|formally|by induction|show that|impossibility|if and only if)\b/gi, weight: 1.5, cap: 1.5 },
  {
    name: 'advanced maths', hard: true,
    re: /\b(positive integers?|composite|divisib\w*|infinitely many|prime factori\w*|gcd|integral|integrate|eigen\w*|manifold|topolog\w*|group of order|isomorphi\w*|homomorphi\w*|modulo|congruen\w*|diophantine|markov|martingale|zeta|differential equations?|asymptotic\w*|inequalit(y|ies)|combinatori\w*|expected (value|number)|bayes\w*|stochastic|lagrangian|hamiltonian|schr[oö]dinger|fourier|laplace transform|tensor)\b/gi,
    weight: 0.6,
    cap: 1.2,
  },
  {
    name: 'analysis', hard: true,
    re: /\b(step[- ]by[- ]step|trade-?offs?|analy[sz]e|analysis|assess|justify|critique|critically|compare|contrast|criticisms?|objections?|arguments? (for|against)|explain (the|your) reasoning|show (your|the) (work|reasoning)|evaluate the|compare and contrast|pros and cons|root cause|diagnos(e|is)|systematic(ally)?|in depth|in-depth|walk (me )?through|strongest arguments?)\b/gi,
    weight: 0.5,
    cap: 1.5,
  },
  {
    name: 'design', hard: true,
    re: /\b(design (a|an|the)|architecture|schema|migration plan|migrate|scalab\w*|multi-tenant|high availability|fault[- ]toleran\w*|idempoten\w*|consisten(t|cy) model|protocol|rollback|cut-?over|downtime|randomi[sz]ed controlled|power analysis|sample size)\b/gi,
    weight: 0.5,
    cap: 1.5,
  },
  {
    name: 'hard code', hard: true,
    re: /\b(concurren\w*|lock-free|atomics?|std::atomic|memory order(ing)?s?|race conditions?|deadlocks?|thread-safe|mutex\w*|distributed|consensus|byzantine|kernel|cuda|simd|compiler|interpreter|parser|garbage collect\w*|allocator|red-black|b-tree|persistent data|refactor\w*|security|vulnerab\w*|exploit\w*|injection|timing (leak|attack)s?|performance|optimi[sz]\w*|complexity|big-o|o\(n[^)]*\)|oom\w*|memory leak|profil(e|ing)|property-based|invariants?)\b/gi,
    weight: 0.6,
    cap: 1.8,
  },
  {
    name: 'build', hard: true,
    re: /\b(implement|build|write) (a|an|the) (full|complete|small language|interpreter|compiler|parser|server|service|library|framework|engine|scheduler|database|queue|cache|tree|graph|system)\b|\bwith (unit |property-based )?tests\b|\bplus (unit )?tests\b/gi,
    weight: 0.6,
    cap: 1.2,
  },
  {
    name: 'expert domain', hard: true,
    re: /\b(statutes?|case law|enforceab\w*|jurisdictions?|liabilit\w*|clinical|diagnos\w*|dosage|pharmaco\w*|valuation|philosoph\w*|moral realism|epistemolog\w*|metaphysic\w*|historiograph\w*|structuralis\w*|theor(y|ies) of|graduate-level|thermodynamic\w*|quantum|relativistic|bound states?)\b/gi,
    weight: 0.5,
    cap: 1,
  },
  {
    name: 'long output',
    re: /\b\d{1,2},?\d{3}[- ]words?\b|\b(essay|report|white ?paper|comprehensive|detailed|thorough(ly)?|in the style of|unreliable narrator)\b/gi,
    weight: 0.5,
    cap: 1,
  },
  {
    name: 'constraints',
    re: /\b(must|without (using|any)|at (least|most)|exactly|no more than|under \d|within \d|avoid|ensure|preserv\w*|keep (the )?behaviou?r|edge cases?|every|each one)\b/gi,
    weight: 0.2,
    cap: 0.8,
  },
];

function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  while (re.exec(text) !== null) n++;
  return n;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** The prompt's difficulty and the cues behind it. */
export function estimateDifficulty(input: DifficultyInput): DifficultyEstimate {
  const text = detectorWindow(input.text);
  const cues: string[] = [];
  let d = BASE;
  const add = (name: string, w: number): void => {
    if (w === 0) return;
    d += w;
    cues.push(`${name} ${w > 0 ? '+' : ''}${round2(w)}`);
  };
  const words = input.text.trim().split(/\s+/).filter(Boolean).length;
  // Longer prompts carry more to get right: +0.9 per tenfold beyond 40 tokens, from −0.9 to +1.8.
  add('length', round2(Math.max(-0.9, Math.min(1.8, 0.9 * Math.log10(Math.max(1, input.tokens) / 40)))));
  let hard = 0;
  const hardCues: Array<[string, number]> = [];
  for (const cue of HARD_CUES) {
    const w = Math.min(cue.cap, count(cue.re, text) * cue.weight);
    if (w > 0) {
      hardCues.push([cue.name, w]);
      if (cue.hard) hard += w;
    }
  }
  if (hard === 0 && words <= 12 && SMALL_TALK.test(input.text)) {
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
    if (words <= 40 && SIMPLE_TASK.test(input.text)) add('one-step task', -1.3);
    else if (words <= 25 && SIMPLE_QUESTION.test(input.text)) add('simple question', -1.3);
    if (BRIEF.test(text)) add('brief answer', -0.5);
  }
  return { value: round2(d), cues };
}
