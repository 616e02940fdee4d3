import type { ClientDialect } from '@rosetta/protocols/common';
import { renderGeminiError } from './gemini-error';

/** Dialect C, Gemini generateContent: everything under `/v1beta`. */
export const geminiDialect: ClientDialect = {
  id: 'gemini',
  ownsPath: (path) => path.startsWith('/v1beta') || /\/v1beta\/models\//.test(path),
  // As Google's SDK and curl examples send it.
  credential: { headers: ['x-goog-api-key'], query: ['key'] },
  renderError: renderGeminiError,
};
