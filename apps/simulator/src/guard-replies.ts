import type { NeutralMessage, NeutralRequest, SimReply } from './reply-plan';

/**
 * Words that make the simulated guard models answer `unsafe`, each with the Llama Guard 3 code
 * and the rubric category it stands for. Matched case-insensitively anywhere in the classified
 * turn; several words give several categories, in this order.
 */
export const GUARD_TRIGGERS: ReadonlyArray<{ word: string; code: string; category: string }> = [
  { word: 'sim-violence', code: 'S1', category: 'violence' },
  { word: 'sim-crime', code: 'S2', category: 'criminal' },
  { word: 'sim-weapons', code: 'S9', category: 'weapons' },
  { word: 'sim-hate', code: 'S10', category: 'hate' },
  { word: 'sim-self-harm', code: 'S11', category: 'self_harm' },
  { word: 'sim-sexual', code: 'S12', category: 'sexual' },
];

/** Models answered as Llama Guard 3 (`llama-guard-3-8b`, `Llama-Guard-3-1B`, …). */
export function isSimLlamaGuard(model: string): boolean {
  return /llama[-_]?guard/i.test(model);
}

/** Models answered as a classifier following the gateway's rubric (`sim-guard`, `sim-guard-mini`, …). */
export function isSimRubricGuard(model: string): boolean {
  return model.toLowerCase().startsWith('sim-guard');
}

/**
 * A guard model's default answer, deterministic: `safe`, or `unsafe` and on the next line the
 * codes (Llama Guard: `S1,S10`) or categories (rubric: `violence,hate`) of the trigger words in the
 * last user or assistant turn (Llama Guard classifies an answer as the last assistant turn).
 * Undefined for any other model. Scripts and directives still win over it.
 */
export function guardReply(request: NeutralRequest): SimReply | undefined {
  const llamaGuard = isSimLlamaGuard(request.model);
  if (!llamaGuard && !isSimRubricGuard(request.model)) return undefined;
  const turn = lastTurnText(request.messages).toLowerCase();
  const hits = GUARD_TRIGGERS.filter((trigger) => turn.includes(trigger.word));
  if (hits.length === 0) return { text: 'safe' };
  return { text: `unsafe\n${hits.map((hit) => (llamaGuard ? hit.code : hit.category)).join(',')}` };
}

function lastTurnText(messages: readonly NeutralMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message?.role === 'user' || message?.role === 'assistant') return message.text;
  }
  return '';
}
