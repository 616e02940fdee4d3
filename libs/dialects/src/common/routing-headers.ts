import type { TranslationWarning } from '@rosetta/canonical';
import type { ServedMeta } from '@rosetta/routing';
import { usdString } from '@rosetta/usage';
import type { GatewayHttpResponse } from './http-types';

/** ARCHITECTURE §4.14: what served the request, and what had to be dropped on the way. */
export function writeRoutingHeaders(res: GatewayHttpResponse, meta: ServedMeta, decodeWarnings: TranslationWarning[] = []): void {
  // Every value through headerSafe: a model id or provider slug stored before the id rule existed
  // may hold a character Node refuses in a header, which would fail a call already answered upstream.
  res.setHeader('x-rosetta-model', headerSafe(meta.model));
  res.setHeader('x-rosetta-provider', headerSafe(meta.provider));
  res.setHeader('x-rosetta-attempts', String(meta.attempts));
  if (meta.route) res.setHeader('x-rosetta-route', headerSafe(meta.route));
  if (meta.costUsd !== undefined) res.setHeader('x-rosetta-cost-usd', usdString(meta.costUsd));
  const warnings = [...decodeWarnings, ...meta.warnings];
  if (warnings.length > 0) {
    res.setHeader('x-rosetta-warnings', headerSafe(warnings.map((w) => `${w.feature}: ${w.message}`).join('; ')));
  }
}

/** Symbols the router's reasons use, spelled in ASCII: HTTP header values are Latin-1 at best. */
const ASCII: Record<string, string> = { '→': '->', '−': '-', '←': '<-', 'λ': 'lambda', '≥': '>=', '≤': '<=', '×': 'x', '…': '...', '–': '-', '—': '-', '‘': "'", '’': "'", '“': '"', '”': '"', '·': '.' };

export function headerSafe(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, (c) => ASCII[c] ?? '?').slice(0, 2000);
}
