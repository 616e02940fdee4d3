import { compileGuardrails, type CompiledGuardrails } from './compile-guardrails';
import { runsAt, type GuardrailCheck, type GuardrailStage } from './guardrail-check';
import { type ExternalCheck } from './external-check-runner';

/** The level a check was configured on. Its index is its position in that level's list. */
export type GuardrailSource = 'key' | 'team' | 'plan';

export interface GuardrailOrigin {
  source: GuardrailSource;
  index: number;
}

/** An external (webhook, model) check, by its position in the effective policy. */
export interface EffectiveExternal {
  at: number;
  check: ExternalCheck;
}

/**
 * The checks a request is held to: its key's, then its team's, then its plan's (all apply),
 * compiled as one policy so one pass over the text runs all of them. `origins[i]` names check i.
 */
export interface EffectiveGuardrails {
  checks: readonly GuardrailCheck[];
  compiled: CompiledGuardrails;
  origins: readonly GuardrailOrigin[];
  /** Whether anything runs at a stage (built-in or external). */
  input: boolean;
  output: boolean;
  inputExternal: readonly EffectiveExternal[];
  outputExternal: readonly EffectiveExternal[];
}

export interface GuardrailLevels {
  key?: readonly GuardrailCheck[] | null;
  team?: readonly GuardrailCheck[] | null;
  plan?: readonly GuardrailCheck[] | null;
}

const NONE: readonly GuardrailCheck[] = Object.freeze([]);
type Memo<V> = WeakMap<readonly GuardrailCheck[], V>;
const memo: Memo<Memo<Memo<EffectiveGuardrails>>> = new WeakMap();

/**
 * The effective policy of a key, its team and its plan; undefined when none has a check (a key
 * without guardrails pays three property reads). Built once per combination of the three lists
 * (they are the cached records' own arrays) and kept while those lists live.
 */
export function effectiveGuardrails(levels: GuardrailLevels): EffectiveGuardrails | undefined {
  const key = levels.key ?? NONE;
  const team = levels.team ?? NONE;
  const plan = levels.plan ?? NONE;
  if (key.length === 0 && team.length === 0 && plan.length === 0) return undefined;
  const byTeam = memoOf(memoOf(memo, key), team);
  let found = byTeam.get(plan);
  if (!found) {
    found = build(key, team, plan);
    byTeam.set(plan, found);
  }
  return found;
}

function memoOf<V>(map: Memo<Memo<V>>, list: readonly GuardrailCheck[]): Memo<V> {
  let inner = map.get(list);
  if (!inner) {
    inner = new WeakMap();
    map.set(list, inner);
  }
  return inner;
}

function build(key: readonly GuardrailCheck[], team: readonly GuardrailCheck[], plan: readonly GuardrailCheck[]): EffectiveGuardrails {
  const checks = [...key, ...team, ...plan];
  const origins: GuardrailOrigin[] = [
    ...key.map((_, index) => ({ source: 'key' as const, index })),
    ...team.map((_, index) => ({ source: 'team' as const, index })),
    ...plan.map((_, index) => ({ source: 'plan' as const, index })),
  ];
  const external = (stage: GuardrailStage): EffectiveExternal[] =>
    checks.flatMap((check, at) => ((check.check === 'webhook' || check.check === 'model') && runsAt(check.on, stage) ? [{ at, check }] : []));
  return {
    checks,
    compiled: compileGuardrails(checks),
    origins,
    input: checks.some((check) => runsAt(check.on, 'input')),
    output: checks.some((check) => runsAt(check.on, 'output')),
    inputExternal: external('input'),
    outputExternal: external('output'),
  };
}
