import { Injectable } from '@nestjs/common';
import { GatewayError } from '@rosetta/canonical';
import { ModelsEndpoint, RegistryService } from '@rosetta/registry';
import { RoutingService } from '@rosetta/routing';
import { anthropicCountTokens } from '../anthropic-messages/anthropic-count-tokens';
import { ChatEndpoints } from '../chat-endpoints.service';
import { decodePathPart } from '../common/decode-path';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { geminiCountTokens, geminiModel, geminiModelList } from '../gemini/gemini-info';
import { parseGeminiModelPath } from '../gemini/gemini-model-path';
import { validateGeminiAlt } from '../gemini/gemini.validate';
import { KeyEndpoint } from '../key/key-endpoint.service';
import { RouteEndpoint } from '../route/route-endpoint.service';
import type { HandlerName } from './data-plane-routes';

/**
 * What a route does once the request has its id, body, key and request limit. It writes the
 * response itself, or returns a body the data plane sends as JSON with status 200. `tail` is the
 * raw rest of a wildcard route's path.
 */
export type Handler = (req: GatewayHttpRequest, res: GatewayHttpResponse, tail: string) => unknown;

/** Every route's handler, by the name the route table gives it. */
@Injectable()
export class DataPlaneHandlers {
  readonly byName: Readonly<Record<HandlerName, Handler>>;

  constructor(
    chat: ChatEndpoints,
    routing: RoutingService,
    registry: RegistryService,
    models: ModelsEndpoint,
    key: KeyEndpoint,
    route: RouteEndpoint,
  ) {
    this.byName = {
      openaiChat: (req, res) => chat.openai(req, res),
      anthropicMessages: (req, res) => chat.anthropic(req, res),
      anthropicCountTokens: (req) => anthropicCountTokens(routing, req.body),
      geminiCall: (req, res, tail) => {
        const { model, method } = parseGeminiModelPath(tail);
        if (method !== 'countTokens') return chat.gemini(req, res, model, method === 'streamGenerateContent');
        validateGeminiAlt(req.query['alt']);
        return geminiCountTokens(routing, req.body, model);
      },
      geminiModels: () => geminiModelList(registry),
      geminiModel: (req, _res, tail) => geminiModel(registry, tail, req.path),
      models: (req) => models.list(req.apiKey?.models),
      model: (req, _res, tail) => models.get(decodePathPart(tail, req.path), req.apiKey?.models),
      key: (req) => key.describe(authenticated(req)),
      route: (req) => route.explain(req),
    };
  }
}

function authenticated(req: GatewayHttpRequest): NonNullable<GatewayHttpRequest['apiKey']> {
  if (!req.apiKey) throw new GatewayError('authentication_error', 'Missing API key');
  return req.apiKey;
}
