import type { FormFailure } from './form-errors';
import type { GuardrailCheckJson } from './types';

/** A level's checks as the form's text: pretty JSON, or empty for none. */
export function guardrailsText(checks: GuardrailCheckJson[] | null | undefined): string {
  return checks && checks.length > 0 ? JSON.stringify(checks, null, 2) : '';
}

/**
 * The form's text as the API's `guardrails`: null when empty, the parsed list otherwise. What is
 * not JSON is refused here, beside the field; what is JSON but not a valid policy is the
 * gateway's to refuse, and it names the path (`guardrails[1].patterns[0]`).
 */
export function guardrailsValue(text: string): { ok: true; value: unknown } | { ok: false; failure: FormFailure } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  try {
    return { ok: true, value: JSON.parse(trimmed) as unknown };
  } catch (error) {
    return { ok: false, failure: { param: 'guardrails', message: `Guardrails must be a JSON list of checks: ${(error as Error).message}` } };
  }
}
