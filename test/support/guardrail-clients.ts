import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';

export type GuardedDialect = 'openai' | 'openai-responses' | 'anthropic' | 'gemini';
export const GUARDED_DIALECTS: readonly GuardedDialect[] = ['openai', 'openai-responses', 'anthropic', 'gemini'];

/** What a client got: the answer's text (what arrived before an error, for a stream) and the error's status and message. */
export interface Seen {
  text: string;
  error?: { status?: number; message: string };
}

const MAX_TOKENS = 300;

/**
 * One user turn through each dialect's official SDK, streamed or not, with the request id the
 * gateway answered with (read from the response headers, to find the ledger row).
 */
export async function askWith(dialect: GuardedDialect, baseUrl: string, key: string, model: string, text: string, stream: boolean): Promise<Seen> {
  let said = '';
  try {
    switch (dialect) {
      case 'openai': {
        const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
        if (!stream) return { text: (await client.chat.completions.create({ model, max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: text }] })).choices[0]?.message.content ?? '' };
        for await (const chunk of await client.chat.completions.create({ model, max_tokens: MAX_TOKENS, stream: true, messages: [{ role: 'user', content: text }] })) said += chunk.choices[0]?.delta.content ?? '';
        return { text: said };
      }
      case 'openai-responses': {
        const client = new OpenAI({ apiKey: key, baseURL: `${baseUrl}/v1`, maxRetries: 0 });
        if (!stream) return { text: (await client.responses.create({ model, max_output_tokens: MAX_TOKENS, input: text })).output_text };
        for await (const event of await client.responses.create({ model, max_output_tokens: MAX_TOKENS, input: text, stream: true })) {
          if (event.type === 'response.output_text.delta') said += event.delta;
          if (event.type === 'error') return { text: said, error: { message: event.message } };
          if (event.type === 'response.failed') return { text: said, error: { message: event.response.error?.message ?? 'failed' } };
        }
        return { text: said };
      }
      case 'anthropic': {
        const client = new Anthropic({ apiKey: key, baseURL: baseUrl, maxRetries: 0 });
        const params = { model, max_tokens: MAX_TOKENS, messages: [{ role: 'user' as const, content: text }] };
        if (!stream) return { text: (await client.messages.create(params)).content.map((b) => (b.type === 'text' ? b.text : '')).join('') };
        for await (const event of await client.messages.create({ ...params, stream: true })) {
          if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') said += event.delta.text;
        }
        return { text: said };
      }
      case 'gemini': {
        const client = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl, fetch: (input, init) => fetch(input, init) } });
        const request = { model, contents: [{ role: 'user', parts: [{ text }] }], config: { maxOutputTokens: MAX_TOKENS } };
        if (!stream) return { text: (await client.models.generateContent(request)).text ?? '' };
        for await (const chunk of await client.models.generateContentStream(request)) said += chunk.text ?? '';
        return { text: said };
      }
    }
  } catch (error) {
    const failure = error as { status?: number; message?: string };
    return { text: said, error: { ...(typeof failure.status === 'number' ? { status: failure.status } : {}), message: String(failure.message ?? error) } };
  }
}
