import type { ClientDialect } from '@rosetta/protocols/common';
import { renderOpenAIChatError } from './openai-chat-error';

/** Dialect A, OpenAI chat completions: every `/v1` path no other dialect owns. */
export const openAIChatDialect: ClientDialect = {
  id: 'openai',
  ownsPath: () => true,
  credential: {},
  renderError: renderOpenAIChatError,
};
