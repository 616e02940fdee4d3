import { Body, Controller, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { ApiKeyService, Public, type ApiKeyRecord } from '@rosetta/auth';
import { GatewayError } from '@rosetta/canonical';
import { RouteEndpoint } from '@rosetta/dialects';
import { AdminGuard, AllowViewer } from './admin.guard';
import type { AdminRequest } from './session/admin-actor';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FIELDS = ['prompt', 'request', 'dialect', 'key_id'];

/**
 * `POST /admin/route`: what `POST /v1/route` answers, for an admin without an API key — the
 * rosetta/auto decision with its signals and candidate scores, without calling an upstream.
 * `{prompt}` routes one user message; `{request}` a whole request body of any dialect (its
 * `model` defaults to rosetta/auto); `key_id` routes as that key would (its allow-list and knob).
 * It changes nothing, so a viewer may use it.
 */
@Public()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminRouteController {
  constructor(
    private readonly route: RouteEndpoint,
    private readonly keys: ApiKeyService,
  ) {}

  @Post('route')
  @HttpCode(200)
  @AllowViewer()
  async explain(@Req() req: AdminRequest, @Body() body: unknown): Promise<Record<string, unknown>> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw GatewayError.invalidRequest('The request body must be a JSON object: {"prompt": "..."} or {"request": {...}}');
    const input = body as Record<string, unknown>;
    const unknown = Object.keys(input).find((name) => !FIELDS.includes(name));
    if (unknown) throw GatewayError.invalidRequest(`Unknown field '${unknown}'; use ${FIELDS.join(', ')}`, unknown);
    const request = this.requestOf(input);
    const dialect = input['dialect'];
    if (dialect !== undefined && typeof dialect !== 'string') throw GatewayError.invalidRequest("Invalid 'dialect': must be a string", 'dialect');
    return this.route.explain({
      id: req.id ?? 'admin-route',
      path: '/v1/route',
      method: 'POST',
      headers: {},
      query: dialect === undefined ? {} : { dialect },
      body: request,
      apiKey: await this.keyOf(input['key_id']),
    });
  }

  private requestOf(input: Record<string, unknown>): Record<string, unknown> {
    const { prompt, request } = input;
    if ((prompt === undefined) === (request === undefined)) throw GatewayError.invalidRequest("Give either 'prompt' (text) or 'request' (a request body of any dialect)", prompt === undefined ? 'prompt' : 'request');
    if (prompt !== undefined) {
      if (typeof prompt !== 'string' || prompt.trim() === '') throw GatewayError.invalidRequest("Invalid 'prompt': must be non-empty text", 'prompt');
      return { model: 'rosetta/auto', messages: [{ role: 'user', content: prompt }] };
    }
    if (typeof request !== 'object' || request === null || Array.isArray(request)) throw GatewayError.invalidRequest("Invalid 'request': must be a JSON object, a request body of any dialect", 'request');
    const body = request as Record<string, unknown>;
    return body['model'] === undefined ? { ...body, model: 'rosetta/auto' } : body;
  }

  private async keyOf(id: unknown): Promise<ApiKeyRecord | undefined> {
    if (id === undefined || id === null || id === '') return undefined;
    const record = typeof id === 'string' && UUID.test(id) ? await this.keys.get(id) : null;
    if (!record) throw GatewayError.invalidRequest(`Invalid 'key_id': no key '${String(id).slice(0, 100)}' (see GET /admin/keys)`, 'key_id');
    return record;
  }
}
