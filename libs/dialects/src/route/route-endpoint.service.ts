import { Injectable } from '@nestjs/common';
import { GatewayError, type CanonicalRequest, type DialectId } from '@rosetta/canonical';
import { convertAnthropicMessagesRequest } from '@rosetta/protocols/anthropic-messages';
import { convertGeminiRequest, normalizeGeminiRequest } from '@rosetta/protocols/gemini';
import { convertOpenAIChatRequest } from '@rosetta/protocols/openai-chat';
import { MixtureService, RoutingService } from '@rosetta/routing';
import type { GatewayHttpRequest } from '../common/http-types';
import { checkRoutingFields, requireObjectBody } from '@rosetta/protocols/common';

const DIALECTS: readonly DialectId[] = ['openai', 'anthropic', 'gemini'];

/**
 * `POST /v1/route`: the routing decision for a request body of any dialect — chosen model,
 * signals with confidences, candidates with scores, what each filter kept — without calling an
 * upstream. The dialect is `?dialect=`, else guessed: `contents` → Gemini, an anthropic-version
 * header → Anthropic, otherwise OpenAI.
 */
@Injectable()
export class RouteEndpoint {
  constructor(
    private readonly routing: RoutingService,
    private readonly mixture: MixtureService,
  ) {}

  async explain(req: GatewayHttpRequest): Promise<Record<string, unknown>> {
    const dialect = req.query['dialect'];
    const body = requireObjectBody(req.body);
    checkRoutingFields(body);
    const chosen = dialect === undefined ? guessDialect(req) : String(dialect);
    if (!DIALECTS.includes(chosen as DialectId)) throw GatewayError.invalidRequest(`dialect must be one of ${DIALECTS.join(', ')}`, 'dialect');
    const request = decode(chosen as DialectId, body);
    // Session affinity is looked up (shown) but not refreshed: explaining is not serving.
    const sticky = this.routing.isAuto(request.model) ? await this.mixture.session(request, req.apiKey) : undefined;
    return { dialect: chosen, ...this.routing.explain(request, { knob: req.apiKey?.routeKnob, allowed: req.apiKey?.models, sticky }) };
  }
}

function guessDialect(req: GatewayHttpRequest): DialectId {
  const body = req.body as Record<string, unknown>;
  if ('contents' in body) return 'gemini';
  if (req.headers['anthropic-version'] !== undefined) return 'anthropic';
  return 'openai';
}

function decode(dialect: DialectId, body: Record<string, unknown>): CanonicalRequest {
  if (typeof body['model'] !== 'string') throw GatewayError.invalidRequest('model is required', 'model');
  if (dialect === 'gemini') return convertGeminiRequest({ body: normalizeGeminiRequest(body), model: body['model'] }).value;
  if (dialect === 'anthropic') return convertAnthropicMessagesRequest({ body: { max_tokens: 1024, ...body } }).value;
  if (!Array.isArray(body['messages'])) throw GatewayError.invalidRequest('messages is required', 'messages');
  return convertOpenAIChatRequest({ body }).value;
}
