/** The three wire formats Rosetta speaks, both as client dialects and as upstream protocols. */
export type ProtocolId = 'openai' | 'anthropic' | 'gemini';

export const PROTOCOLS: readonly ProtocolId[] = ['openai', 'anthropic', 'gemini'];
