import type { DialectId } from '@rosetta/canonical';
import { DIALECTS } from './dialect-list';

/**
 * Which dialect a path belongs to, so errors raised outside a known route (an unknown path, a body
 * Nest could not read) are still rendered in the envelope the caller's SDK parses.
 */
export function dialectForPath(path: string): DialectId {
  return (DIALECTS.find((d) => d.ownsPath(path)) ?? DIALECTS[DIALECTS.length - 1]!).id;
}

/** Routes OpenAI's SDKs append to their base URL, which must end in /v1. */
const OPENAI_SDK_ROUTE = /^\/(?:chat\/completions|completions|embeddings|responses|models|key)(?:\/|$)/;

/**
 * A hint for a path that is one of ours without its /v1 — what an OpenAI SDK sends when its base
 * URL is the gateway's bare address (`base_url=http://<gateway>` instead of `…/v1`).
 */
export function missingBasePathHint(path: string): string | undefined {
  if (!OPENAI_SDK_ROUTE.test(path)) return undefined;
  return `the base URL should end in /v1: call /v1${path} instead (for OpenAI's SDKs and Codex, set the base URL to http://<gateway>/v1)`;
}

/**
 * A hint for a path that is one of ours with the base path doubled — what a client configured
 * with `…/v1` as its base URL sends when its SDK appends `/v1` again (Claude Code with
 * ANTHROPIC_BASE_URL=…/v1, a Gemini base URL ending in /v1beta).
 */
export function doubledBasePathHint(path: string): string | undefined {
  const match = /^((?:\/[^/]+)*?)\/(v1beta|v1)\/(?:\2\/)+(.*)$/.exec(path) ?? /^(\/v1)\/(v1beta)\/(.*)$/.exec(path);
  if (!match) return undefined;
  const fixed = `/${match[2]}/${match[3]}`;
  // OpenAI's SDKs take the base URL *with* /v1 and add only the route; Anthropic's and Google's
  // take the bare address and add /v1 or /v1beta themselves.
  if (match[2] === 'v1' && dialectForPath(fixed) === 'openai') {
    return `the path repeats its base path: call ${fixed} instead (set the base URL to the gateway's address followed by /v1 once, e.g. http://<gateway>/v1; the SDK adds the route)`;
  }
  const base = match[2] === 'v1beta' ? 'GOOGLE_GEMINI_BASE_URL / the Gemini base URL' : 'the base URL';
  return `the path repeats its base path: call ${fixed} instead (set ${base} to the gateway's address without /${match[2]}; the SDK adds it)`;
}
