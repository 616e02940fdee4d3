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

/** Text cut into pieces of 1 to maxChunk characters, as a stream might deliver it. */
export function chunked(text: string, next: () => number, maxChunk: number): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = 1 + Math.floor(next() * maxChunk);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}
