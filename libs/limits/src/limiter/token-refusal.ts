import { GatewayError } from '@rosetta/canonical';
import type { WindowResult } from './rate-limit-store';

/** What a token reservation is made of, for the messages that refuse it. */
export interface TokenNeed {
  prompt: number;
  /** Output tokens reserved (the request's cap, bounded); 0 when none. */
  output: number;
}

const count = (n: number): string => n.toLocaleString('en-US');

/** The token 429: which limit, what the request needed, what remains (as in the headers), what to change. */
export function tokenRefusal(
  plan: string,
  tpm: number,
  units: number,
  window: Omit<WindowResult, 'allowed'>,
  retryAfterMs: number | undefined,
  need: TokenNeed | undefined,
  headers: Record<string, string>,
): GatewayError {
  const parts = need ? ` (prompt ≈ ${count(need.prompt)}${need.output > 0 ? ` + ${count(need.output)} reserved for output` : ''})` : '';
  if (units > tpm) {
    const prompt = need?.prompt ?? units;
    const advice = prompt > tpm ? 'shorten the prompt or use a key whose plan allows more tokens per minute' : 'lower max_tokens or use a key whose plan allows more tokens per minute';
    return new GatewayError('rate_limit_error', `Rate limit exceeded: the request needs ${count(units)} tokens${parts}, more than plan ${plan}'s ${count(tpm)} tokens per minute: ${advice}`, {
      code: 'tokens_exceed_limit',
      headers: { ...headers, 'x-should-retry': 'false' },
    });
  }
  const waitMs = Math.max(1, retryAfterMs ?? window.resetMs);
  const lower = need && need.output > 0 ? ', or lower max_tokens' : '';
  return new GatewayError(
    'rate_limit_error',
    `Rate limit exceeded: the request needs ${count(units)} tokens${parts} and ${count(window.remaining)} of plan ${plan}'s ${count(tpm)} tokens per minute remain: retry in ${Math.ceil(waitMs / 1000)} s${lower}`,
    { code: 'rate_limit_exceeded', retryAfterMs: waitMs, headers },
  );
}
