import { messageFor, type FormFailure } from '../form-errors';
import { Field } from './ui';

const EXAMPLE = '[{"check": "pii", "on": "both", "action": "redact"}, {"check": "secrets", "on": "input", "action": "block"}]';

/**
 * A plan's, team's or key's guardrail checks as JSON (docs/guide/guardrails.md), with the
 * gateway's message under it when it refuses them: it names the check and the field.
 */
export function GuardrailsField({ id, text, onInput, failure, level }: { id: string; text: string; onInput: (text: string) => void; failure?: FormFailure; level: 'plan' | 'team' | 'key' }) {
  const also = level === 'key' ? "its team's and its plan's apply too" : level === 'team' ? "each key's own and its plan's apply too" : "each key's own and its team's apply too";
  return (
    <Field label="Guardrails" id={`${id}-guardrails`} wide error={messageFor(failure, 'guardrails')} hint={`A JSON list of checks (pii, secrets, regex, webhook, model); empty: none. ${also[0]!.toUpperCase()}${also.slice(1)}. E.g. ${EXAMPLE}`}>
      <textarea id={`${id}-guardrails`} rows={4} spellcheck={false} value={text} placeholder={EXAMPLE} onInput={(e) => onInput(e.currentTarget.value)} />
    </Field>
  );
}
