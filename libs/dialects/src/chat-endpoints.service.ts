import { Inject, Injectable } from '@nestjs/common';
import { estimatePromptTokens } from '@rosetta/limits';
import {
  AnthropicMessagesStreamEncoder,
  convertAnthropicMessagesRequest,
  convertToAnthropicMessagesResponse,
} from '@rosetta/protocols/anthropic-messages';
import {
  convertGeminiRequest,
  convertToGeminiResponse,
  formatGeminiSSE,
  GeminiJsonArrayWriter,
  GeminiStreamEncoder,
  normalizeGeminiRequest,
} from '@rosetta/protocols/gemini';
import { convertOpenAIChatRequest, convertToOpenAIChatResponse, OpenAIChatStreamEncoder } from '@rosetta/protocols/openai-chat';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { ChatService } from '@rosetta/routing';
import { validateAnthropicMessagesRequest } from './anthropic-messages/anthropic-messages.validate';
import type { GatewayHttpRequest, GatewayHttpResponse } from './common/http-types';
import { requireObjectBody } from './common/request-validation';
import { serveChat } from './common/serve-chat';
import type { StreamFraming } from './common/write-event-stream';
import { validateGeminiAlt, validateGeminiGenerateContentRequest } from './gemini/gemini.validate';
import { validateOpenAIChatRequest } from './openai-chat/openai-chat.validate';

const SSE = 'text/event-stream; charset=utf-8';

/**
 * `model` defaults to the Mixture of Models when a body leaves it out (ARCHITECTURE: rosetta/auto
 * is the default model). Only an absent field: `null`, `""` or a number stay 400s naming it.
 */
export function withDefaultModel(raw: unknown, model: string): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && (raw as Record<string, unknown>)['model'] === undefined) {
    (raw as Record<string, unknown>)['model'] = model;
  }
  return raw;
}

function header(req: GatewayHttpRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * The three chat endpoints: decode, call the gateway, encode. No provider logic here. Served by
 * the data plane (DATA_PLANE_ROUTES).
 */
@Injectable()
export class ChatEndpoints {
  private readonly autoModel: string;

  constructor(
    private readonly chat: ChatService,
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
  ) {
    this.autoModel = `${config.modelNamespace}/auto`;
  }

  /** Dialect A: POST /v1/chat/completions. */
  async openai(req: GatewayHttpRequest, res: GatewayHttpResponse): Promise<void> {
    const body = validateOpenAIChatRequest(withDefaultModel(req.body, this.autoModel));
    const { value: request, warnings } = convertOpenAIChatRequest({ body });
    const options = body['stream_options'] as Record<string, unknown> | undefined;
    const includeUsage = options?.['include_usage'] === true;
    await serveChat(this.chat, req, res, request, warnings, {
      dialect: 'openai',
      response: (response) => convertToOpenAIChatResponse({ response }),
      stream: (meta) => {
        const encoder = new OpenAIChatStreamEncoder({
          id: `chatcmpl-${req.id.replace(/^req_/, '')}`,
          model: meta.model,
          created: Math.floor(Date.now() / 1000),
          includeUsage,
        });
        return { contentType: SSE, encode: (event) => encoder.encode(event) };
      },
    });
  }

  /** Dialect B: POST /v1/messages. */
  async anthropic(req: GatewayHttpRequest, res: GatewayHttpResponse): Promise<void> {
    const body = validateAnthropicMessagesRequest(withDefaultModel(req.body, this.autoModel));
    const { value: request, warnings } = convertAnthropicMessagesRequest({ body });
    // ARCHITECTURE §4.12: the version defaults to 2023-06-01; both headers reach Anthropic upstreams.
    const headers: Record<string, string> = { 'anthropic-version': header(req, 'anthropic-version') ?? '2023-06-01' };
    const beta = header(req, 'anthropic-beta');
    if (beta) headers['anthropic-beta'] = beta;
    if (request.passthrough) request.passthrough.headers = headers;
    res.setHeader('request-id', req.id);
    await serveChat(this.chat, req, res, request, warnings, {
      dialect: 'anthropic',
      response: (response) => convertToAnthropicMessagesResponse({ response }),
      stream: (meta) => {
        const encoder = new AnthropicMessagesStreamEncoder({ id: `msg_${req.id.replace(/^req_/, '')}`, model: meta.model, inputTokensHint: estimatePromptTokens(request) });
        return { contentType: SSE, encode: (event) => encoder.encode(event) };
      },
    });
  }

  /** Dialect C: POST /v1beta/models/{model}:generateContent and :streamGenerateContent. */
  async gemini(req: GatewayHttpRequest, res: GatewayHttpResponse, model: string, stream: boolean): Promise<void> {
    const sse = validateGeminiAlt(req.query['alt']);
    const body = validateGeminiGenerateContentRequest(normalizeGeminiRequest(requireObjectBody(req.body)));
    const { value: request, warnings } = convertGeminiRequest({ body, model, stream });
    await serveChat(this.chat, req, res, request, warnings, {
      dialect: 'gemini',
      response: (response) => convertToGeminiResponse({ response }),
      stream: (meta) => geminiFraming(new GeminiStreamEncoder({ id: req.id, model: meta.model }), sse),
    });
  }
}

function geminiFraming(encoder: GeminiStreamEncoder, sse: boolean): StreamFraming {
  if (sse) {
    // @google/genai raises an in-stream error only when a network read is a bare error JSON, so
    // an error chunk goes out unframed (Google's own behaviour); everything else as `data:` events.
    const frame = (chunk: Record<string, unknown>): string => ('error' in chunk ? `${JSON.stringify(chunk)}\n` : formatGeminiSSE(chunk));
    return { contentType: 'text/event-stream; charset=utf-8', encode: (e) => encoder.encode(e).map(frame).join('') };
  }
  const writer = new GeminiJsonArrayWriter();
  return {
    contentType: 'application/json; charset=utf-8',
    open: writer.open(),
    encode: (e) => encoder.encode(e).map((chunk) => writer.item(chunk)).join(''),
    close: () => writer.close(),
  };
}
