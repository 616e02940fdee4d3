import { compileGuardrails, type CompiledGuardrails } from './compile-guardrails';
import { parseGuardrailPolicy } from './guardrail-policy';

/** A policy as the admin API would send it, parsed and compiled; a test's own policy must be valid. */
export function compiledPolicy(policy: unknown): CompiledGuardrails {
  const parsed = parseGuardrailPolicy(policy);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return compileGuardrails(parsed.checks);
}

/** A small deterministic generator, so a failing random case reproduces from its seed. */
export function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}
