import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { convertOpenAIChatRequest, convertToOpenAIChatResponse, OpenAIChatStreamEncoder } from '@rosetta/protocols/openai-chat';
import { validateBody } from '@rosetta/platform';
import { ChatService } from '@rosetta/routing';
import type { GatewayHttpRequest, GatewayHttpResponse } from '../common/http-types';
import { serveChat } from '../common/serve-chat';
import { OpenAIChatRequestDto } from './openai-chat.dto';

const SSE = 'text/event-stream; charset=utf-8';

/** Dialect A: decode, call the gateway, encode. No provider logic here. */
@Controller('v1/chat')
export class OpenAIChatController {
  constructor(private readonly chat: ChatService) {}

  @Post('completions')
  @HttpCode(200)
  async create(@Req() req: GatewayHttpRequest, @Res() res: GatewayHttpResponse): Promise<void> {
    const dto = validateBody(OpenAIChatRequestDto, req.body);
    const { value: request, warnings } = convertOpenAIChatRequest({ body: req.body as Record<string, unknown> });
    const includeUsage = dto.stream_options?.['include_usage'] === true;
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
}
