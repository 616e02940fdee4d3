import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { estimatePromptTokens } from '@rosetta/limits';
import { validateBody } from '@rosetta/platform';
import {
  convertGeminiRequest,
  convertToGeminiResponse,
  formatGeminiSSE,
  GeminiJsonArrayWriter,
  GeminiStreamEncoder,
  normalizeGeminiRequest,
} from '@rosetta/protocols/gemini';
import { RegistryService, type RegistryModel } from '@rosetta/registry';
import { ChatService, RoutingService } from '@rosetta/routing';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { isPlainObject } from '../common/validators';
import { serveChat } from '../common/serve-chat';
import type { StreamFraming } from '../common/write-event-stream';
import { GeminiGenerateContentDto } from './gemini.dto';
import { parseGeminiModelPath } from './gemini-model-path';

/** Dialect C: generateContent, streamGenerateContent (SSE or a streamed JSON array), countTokens, models. */
@Controller('v1beta/models')
export class GeminiController {
  constructor(
    private readonly chat: ChatService,
    private readonly routing: RoutingService,
    private readonly registry: RegistryService,
  ) {}

  @Get()
  list(): Record<string, unknown> {
    return { models: this.registry.list().map(toGeminiModel) };
  }

  @Get('*path')
  get(@Param('path') path: string | string[]): Record<string, unknown> {
    const id = Array.isArray(path) ? path.join('/') : path;
    return toGeminiModel(this.registry.resolve(id, 'model'));
  }

  @Post('*path')
  @HttpCode(200)
  async call(@Param('path') path: string | string[], @Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    const { model, method } = parseGeminiModelPath(path);
    if (!isPlainObject(req.body)) throw GatewayError.invalidRequest('The request body must be a JSON object');
    const body = normalizeGeminiRequest(req.body);
    if (method === 'countTokens') {
      res.status(200).json(this.countTokens(body, model));
      return;
    }
    validateBody(GeminiGenerateContentDto, body);
    const stream = method === 'streamGenerateContent';
    const { value: request, warnings } = convertGeminiRequest({ body, model, stream });
    const sse = req.query['alt'] === 'sse';
    await serveChat(this.chat, req, res, request, warnings, {
      dialect: 'gemini',
      response: (response) => convertToGeminiResponse({ response }),
      stream: (meta) => geminiFraming(new GeminiStreamEncoder({ id: req.id, model: meta.model }), sse),
    });
  }

  /** `{contents}` or `{generateContentRequest: {...}}`, answered with a tokenizer estimate. */
  private countTokens(body: Record<string, unknown>, model: string): Record<string, unknown> {
    const inner = isPlainObject(body['generateContentRequest']) ? body['generateContentRequest'] : body;
    validateBody(GeminiGenerateContentDto, inner);
    const { value: request } = convertGeminiRequest({ body: inner, model, stream: false });
    this.routing.resolveModels(request);
    return { totalTokens: estimatePromptTokens(request) };
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

function toGeminiModel(model: RegistryModel): Record<string, unknown> {
  const top = model.endpoints[0];
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.displayName,
    description: model.description,
    inputTokenLimit: top?.contextLength ?? 1_048_576,
    outputTokenLimit: top?.maxCompletionTokens ?? 65_536,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent', 'countTokens'],
  };
}
