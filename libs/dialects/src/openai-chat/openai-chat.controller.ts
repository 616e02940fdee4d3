import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  convertOpenAIChatRequest,
  convertToOpenAIChatResponse,
  OpenAIChatStreamEncoder,
} from '@rosetta/protocols/openai-chat';
import { validateBody } from '@rosetta/platform';
import { ChatService } from '@rosetta/routing';
import { callContext } from '../common/call-context';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { writeRoutingHeaders } from '../common/routing-headers';
import { writeEventStream } from '../common/write-event-stream';
import { OpenAIChatRequestDto } from './openai-chat.dto';

/** Dialect A: decode, call the gateway, encode. No provider logic here. */
@Controller('v1/chat')
export class OpenAIChatController {
  constructor(private readonly chat: ChatService) {}

  @Post('completions')
  @HttpCode(200)
  async create(@Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    const dto = validateBody(OpenAIChatRequestDto, req.body);
    const { value: request, warnings } = convertOpenAIChatRequest({ body: req.body as Record<string, unknown> });
    const ctx = callContext(req, res);
    if (!request.stream) {
      const outcome = await this.chat.complete(request, ctx);
      writeRoutingHeaders(res, outcome.meta, warnings);
      res.status(200).json(convertToOpenAIChatResponse({ response: outcome.response }));
      return;
    }
    const outcome = await this.chat.stream(request, ctx);
    writeRoutingHeaders(res, outcome.meta, warnings);
    const encoder = new OpenAIChatStreamEncoder({
      id: `chatcmpl-${req.id.replace(/^req_/, '')}`,
      model: outcome.meta.model,
      created: Math.floor(Date.now() / 1000),
      includeUsage: dto.stream_options?.['include_usage'] === true,
    });
    await writeEventStream(res, outcome.events, (event) => encoder.encode(event));
  }
}
