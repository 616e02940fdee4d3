/**
 * The kinds of finding the built-in checks report. They appear in policies (`kinds`), in
 * verdicts and in the redaction placeholder `[REDACTED:<kind>]`, so they are part of the API.
 */

export const PII_KINDS = ['email', 'phone', 'card', 'iban', 'ssn', 'ip'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

export const SECRET_KINDS = [
  'aws_access_key',
  'aws_secret_key',
  'openai_key',
  'anthropic_key',
  'google_api_key',
  'github_token',
  'slack_token',
  'stripe_key',
  'private_key',
  'bearer_token',
  'jwt',
] as const;
export type SecretKind = (typeof SECRET_KINDS)[number];

/** A regex check's kind: `regex`, or the name the operator gave a pattern. */
export const REGEX_KIND = 'regex';
