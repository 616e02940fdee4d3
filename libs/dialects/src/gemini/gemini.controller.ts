import { Controller, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { estimatePromptTokens } from '@rosetta/limits';
import { convertGeminiRequest, normalizeGeminiRequest } from '@rosetta/protocols/gemini';
import { RegistryService, type RegistryModel } from '@rosetta/registry';
import { RoutingService } from '@rosetta/routing';
import { ChatEndpoints } from '../chat-endpoints.service';
import { sendJson, type GatewayHttpRequest, type GatewayHttpResponse } from '../common/http-types';
import { isRecord } from '@rosetta/protocols/common';
import { requireObjectBody } from '../common/request-validation';
import { parseGeminiModelSegments } from './gemini-model-path';
import { validateGeminiAlt, validateGeminiGenerateContentRequest } from './gemini.validate';

/** Dialect C: generateContent, streamGenerateContent (SSE or a streamed JSON array), countTokens, models. */
@Controller('v1beta/models')
export class GeminiController {
  constructor(
    private readonly endpoints: ChatEndpoints,
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

  /** countTokens, and generateContent for path variants the chat lane does not match. */
  @Post('*path')
  @HttpCode(200)
  async call(@Param('path') path: string | string[], @Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    const { model, method } = parseGeminiModelSegments(path);
    if (method !== 'countTokens') return this.endpoints.gemini(req, res, model, method === 'streamGenerateContent');
    validateGeminiAlt(req.query['alt']);
    sendJson(res, 200, this.countTokens(normalizeGeminiRequest(requireObjectBody(req.body)), model));
  }

  /** `{contents}` or `{generateContentRequest: {...}}`, answered with a tokenizer estimate. */
  private countTokens(body: Record<string, unknown>, model: string): Record<string, unknown> {
    const inner = validateGeminiGenerateContentRequest(isRecord(body['generateContentRequest']) ? body['generateContentRequest'] : body);
    const { value: request } = convertGeminiRequest({ body: inner, model, stream: false });
    this.routing.resolveModels(request);
    return { totalTokens: estimatePromptTokens(request) };
  }
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
