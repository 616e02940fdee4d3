import { Inject, Injectable } from '@nestjs/common';
import type { CanonicalRequest } from '@rosetta/canonical';
import { invalidField, requireObjectBody, requireString, type ClientDialect } from '@rosetta/protocols/common';
import { DIALECTS } from '@rosetta/protocols/dialects';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { MixtureService, RoutingService } from '@rosetta/routing';
import type { GatewayHttpRequest } from '../common/http-types';

/**
 * `POST /v1/route`: the routing decision for a request body of any dialect — chosen model,
 * signals with confidences, candidates with scores, what each filter kept — without calling an
 * upstream. The dialect is `?dialect=`, else the first whose descriptor recognises the body
 * (`contents` → Gemini, an anthropic-version header → Anthropic), else dialect A. A body without
 * `model` asks about `rosetta/auto`, as a chat request without one is served by it.
 */
@Injectable()
export class RouteEndpoint {
  private readonly autoModel: string;

  constructor(
    private readonly routing: RoutingService,
    private readonly mixture: MixtureService,
    @Inject(ROSETTA_CONFIG) config: RosettaConfig,
  ) {
    this.autoModel = `${config.modelNamespace}/auto`;
  }

  async explain(req: GatewayHttpRequest): Promise<Record<string, unknown>> {
    const named = req.query['dialect'];
    const body = requireObjectBody(req.body);
    const dialect = named === undefined ? guessDialect(body, req) : DIALECTS.find((d) => d.id === String(named));
    if (!dialect) throw invalidField('dialect', `must be one of ${DIALECTS.map((d) => d.id).join(', ')}`);
    const request = decode(dialect, body, req, this.autoModel);
    // Session affinity is looked up (shown) but not refreshed: explaining is not serving.
    const sticky = this.routing.isAuto(request.model) ? await this.mixture.session(request, req.apiKey) : undefined;
    return { dialect: dialect.id, ...this.routing.explain(request, { knob: req.apiKey?.routeKnob, allowed: req.apiKey?.models, sticky }) };
  }
}

function guessDialect(body: Record<string, unknown>, req: GatewayHttpRequest): ClientDialect {
  return DIALECTS.find((d) => d.recognises?.(body, req.headers)) ?? DIALECTS[DIALECTS.length - 1]!;
}

function decode(dialect: ClientDialect, body: Record<string, unknown>, req: GatewayHttpRequest, autoModel: string): CanonicalRequest {
  // Named in the body whatever the dialect (a Gemini body's model is in its path elsewhere).
  const model = body['model'] === undefined ? autoModel : requireString(body, 'model');
  if (dialect.decodeForRouting) return dialect.decodeForRouting(body, model);
  return dialect.decodeChat({ body, query: {}, headers: req.headers, requestId: req.id, model, defaultModel: model }).request;
}
