import type { TranslationWarning } from '@rosetta/canonical';
import type { ServedMeta } from '@rosetta/routing';
import { usdString } from '@rosetta/usage';
import type { GatewayHttpResponse } from './http-types';

/** ARCHITECTURE §4.14: what served the request, and what had to be dropped on the way. */
export function writeRoutingHeaders(res: GatewayHttpResponse, meta: ServedMeta, decodeWarnings: TranslationWarning[] = []): void {
  res.setHeader('x-rosetta-model', meta.model);
  res.setHeader('x-rosetta-provider', meta.provider);
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
