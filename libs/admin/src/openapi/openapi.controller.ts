import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { ROSETTA_CONFIG, type RosettaConfig } from '@rosetta/platform';
import { openApiDocument } from './openapi-document';
import { renderDocs } from './render-docs';

/**
 * `GET /openapi.json` and `GET /docs`: the API reference, without a key (it holds no secret), on
 * the admin port when ADMIN_PORT is set. Built once: the routes do not change at run time.
 */
@Public()
@Controller()
export class OpenApiController {
  private readonly document: Record<string, unknown>;
  private readonly html: string;

  constructor(@Inject(ROSETTA_CONFIG) config: RosettaConfig) {
    this.document = openApiDocument(config.modelNamespace);
    this.html = renderDocs(this.document);
  }

  @Get('openapi.json')
  @Header('cache-control', 'no-cache')
  spec(): Record<string, unknown> {
    return this.document;
  }

  @Get('docs')
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
  @Header('cache-control', 'no-cache')
  docs(): string {
    return this.html;
  }
}
