/**
 * Llama Guard 3's hazard codes (the MLCommons taxonomy plus Meta's S13–S14) and the kinds this
 * gateway reports them as. A model check on a Llama Guard may name either in `categories`
 * (`"S1"` or `"violent_crimes"`) to act on only those.
 */
export const LLAMA_GUARD_CATEGORIES: Readonly<Record<string, string>> = {
  S1: 'violent_crimes',
  S2: 'non_violent_crimes',
  S3: 'sex_crimes',
  S4: 'child_exploitation',
  S5: 'defamation',
  S6: 'specialized_advice',
  S7: 'privacy',
  S8: 'intellectual_property',
  S9: 'indiscriminate_weapons',
  S10: 'hate',
  S11: 'self_harm',
  S12: 'sexual_content',
  S13: 'elections',
  S14: 'code_interpreter_abuse',
};

/** Whether a model (its public id or upstream name) is a Llama Guard, answered in its own format. */
export function isLlamaGuard(name: string): boolean {
  return /llama[-_ ]?guard/i.test(name);
}
