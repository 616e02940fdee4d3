import { runsAt, type GuardrailAction, type GuardrailCheck, type GuardrailCheckType, type GuardrailStage } from './guardrail-check';
import { PII_KINDS, SECRET_KINDS } from './guardrail-kinds';
import { type Detector, type Finding, type ScanMeter } from './finding';
import { piiDetectors, secretDetectors } from './detectors/builtin-detectors';
import { compileRegexes } from './regex/compile-regex';
import { type RegexProgram } from './regex/regex-program';
import { runRegexProgram } from './regex/run-regex-program';
import { regexSources } from './validate-regex-check';

/** A check ready to run: its detectors or its compiled program. */
export interface CompiledCheck {
  /** Position in the policy, so a verdict or a block can name the check. */
  index: number;
  check: GuardrailCheckType;
  on: GuardrailCheck['on'];
  action: GuardrailAction;
  detectors: readonly Detector[];
  /** Kinds to keep from the detectors (one detector may find several kinds). */
  kinds: ReadonlySet<string> | null;
  program: RegexProgram | null;
  /** How far a finding's decision reaches: what a stream must hold back for this check. */
  window: number;
}

/** Checks compiled once per policy value: the data plane may call this per request. */
export interface CompiledGuardrails {
  /** The checks this library runs; webhook and model checks are the data plane's. */
  checks: readonly CompiledCheck[];
  /** Checks configured but run elsewhere (webhook, model), by policy position. */
  external: ReadonlyArray<{ index: number; check: GuardrailCheck }>;
}

const cache = new WeakMap<readonly GuardrailCheck[], CompiledGuardrails>();

/** Compiles a parsed policy (from parseGuardrailPolicy); the result is cached per policy array. */
export function compileGuardrails(policy: readonly GuardrailCheck[]): CompiledGuardrails {
  const cached = cache.get(policy);
  if (cached) return cached;
  const checks: CompiledCheck[] = [];
  const external: Array<{ index: number; check: GuardrailCheck }> = [];
  policy.forEach((check, index) => {
    const compiled = compileCheck(check, index);
    if (compiled) checks.push(compiled);
    else external.push({ index, check });
  });
  const result = { checks, external };
  cache.set(policy, result);
  return result;
}

function compileCheck(check: GuardrailCheck, index: number): CompiledCheck | null {
  const base = { index, check: check.check, on: check.on, action: check.action, program: null };
  switch (check.check) {
    case 'pii': {
      const detectors = piiDetectors(check.kinds ?? PII_KINDS);
      return { ...base, detectors, kinds: null, window: maxWindow(detectors) };
    }
    case 'secrets': {
      const kinds = check.kinds ?? SECRET_KINDS;
      const detectors = secretDetectors(kinds);
      return { ...base, detectors, kinds: check.kinds ? new Set(kinds) : null, window: maxWindow(detectors) };
    }
    case 'regex': {
      const compiled = compileRegexes(regexSources(check), check.ignoreCase);
      // Policies are validated before they are compiled; an invalid one here is a caller's bug.
      if ('error' in compiled) throw new Error(`guardrails[${index}]: regex check was not validated`);
      return { ...base, detectors: [], kinds: null, program: compiled.program, window: compiled.program.maxLength + 2 };
    }
    default:
      return null;
  }
}

function maxWindow(detectors: readonly Detector[]): number {
  return Math.max(0, ...detectors.map((d) => d.window));
}

export interface FindOptions {
  /** Whether offset 0 is the start of the whole text. */
  atStart: boolean;
  /** Whether the text ends here (false mid-stream). */
  atEnd: boolean;
  /**
   * Findings starting before this are not wanted (a stream has emitted them). Detectors start
   * here (they find every finding that starts at or after `from`, reading back into the text for
   * context themselves); a regex program starts twice its window earlier, because a match it
   * reports is the union of overlapping matches, which may begin before this.
   */
  wantFrom: number;
}

const ONE_SHOT: FindOptions = { atStart: true, atEnd: true, wantFrom: 0 };

/** Every finding of one check in text; detectors' kinds filtered to the check's. */
export function findForCheck(check: CompiledCheck, text: string, meter: ScanMeter, options: FindOptions = ONE_SHOT): Finding[] {
  if (check.program) return runRegexProgram(check.program, text, { ...options, from: Math.max(0, options.wantFrom - 2 * check.window) }, meter);
  const found: Finding[] = [];
  for (const detector of check.detectors) detector.find(text, found, options.wantFrom, meter);
  return check.kinds ? found.filter((f) => check.kinds?.has(f.kind)) : found;
}

export function checksAt(guardrails: CompiledGuardrails, stage: GuardrailStage): CompiledCheck[] {
  return guardrails.checks.filter((check) => runsAt(check.on, stage));
}
