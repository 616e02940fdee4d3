import { type SecretKind } from '../guardrail-kinds';
import { isAlnum, isDigit, isUpper } from './char-codes';

/** A provider credential recognised by its published prefix and the alphabet and length of the rest. */
export interface SecretTokenFormat {
  kind: SecretKind;
  prefixes: readonly string[];
  body: (code: number) => boolean;
  minBody: number;
  maxBody: number;
}

const upperOrDigit = (code: number): boolean => isUpper(code) || isDigit(code);
const alnum = isAlnum;
const alnumDashUnderscore = (code: number): boolean => isAlnum(code) || code === 45 || code === 95;
const alnumUnderscore = (code: number): boolean => isAlnum(code) || code === 95;
const alnumDash = (code: number): boolean => isAlnum(code) || code === 45;

/**
 * Order matters where prefixes nest: `sk-ant-` is tried before `sk-`. A body longer than its
 * maximum is not taken (it is something else that happens to share the prefix).
 */
export const SECRET_TOKEN_FORMATS: readonly SecretTokenFormat[] = [
  { kind: 'aws_access_key', prefixes: ['AKIA', 'ASIA', 'ABIA', 'ACCA'], body: upperOrDigit, minBody: 16, maxBody: 16 },
  { kind: 'anthropic_key', prefixes: ['sk-ant-'], body: alnumDashUnderscore, minBody: 32, maxBody: 200 },
  { kind: 'openai_key', prefixes: ['sk-'], body: alnumDashUnderscore, minBody: 20, maxBody: 200 },
  { kind: 'google_api_key', prefixes: ['AIza'], body: alnumDashUnderscore, minBody: 35, maxBody: 35 },
  { kind: 'github_token', prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], body: alnum, minBody: 36, maxBody: 36 },
  { kind: 'github_token', prefixes: ['github_pat_'], body: alnumUnderscore, minBody: 22, maxBody: 255 },
  { kind: 'slack_token', prefixes: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-', 'xoxs-', 'xoxe-'], body: alnumDash, minBody: 10, maxBody: 250 },
  { kind: 'stripe_key', prefixes: ['sk_live_', 'rk_live_', 'sk_test_', 'rk_test_'], body: alnum, minBody: 16, maxBody: 247 },
];

export const SECRET_TOKEN_PREFIXES: readonly string[] = SECRET_TOKEN_FORMATS.flatMap((f) => f.prefixes);

/** The longest token any format accepts, plus the characters either side that decide it. */
export const SECRET_TOKEN_WINDOW = Math.max(...SECRET_TOKEN_FORMATS.map((f) => Math.max(...f.prefixes.map((p) => p.length)) + f.maxBody)) + 2;
