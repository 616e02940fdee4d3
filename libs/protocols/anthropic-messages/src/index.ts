export { convertAnthropicMessagesRequest } from './convert-anthropic-messages-request';
export { convertToAnthropicMessagesRequest } from './convert-to-anthropic-messages-request';
export { convertAnthropicMessagesResponse } from './convert-anthropic-messages-response';
export {
  convertToAnthropicMessagesResponse,
  toAnthropicMessageId,
  type AnthropicMessagesContentBlock,
  type AnthropicMessagesResponse,
} from './convert-to-anthropic-messages-response';
export {
  mapAnthropicMessagesStopReason,
  toAnthropicMessagesStopReason,
  type AnthropicMessagesStopReason,
} from './map-anthropic-messages-stop-reason';
export { mapAnthropicMessagesUsage, toAnthropicMessagesUsage, type AnthropicMessagesUsage } from './map-anthropic-messages-usage';
export { AnthropicMessagesStreamDecoder } from './anthropic-messages-stream-decoder';
export { AnthropicMessagesStreamEncoder, type AnthropicMessagesStreamEncoderOptions } from './anthropic-messages-stream-encoder';
export { AnthropicMessagesStreamScanner } from './anthropic-messages-stream-scanner';
export { AnthropicMessagesPassThroughFraming } from './anthropic-messages-pass-through-framing';
export { parseAnthropicMessagesSSE, type AnthropicMessagesSSEEvent } from './parse-anthropic-messages-sse';
export {
  parseAnthropicMessagesErrorBody,
  renderAnthropicMessagesError,
  type AnthropicMessagesErrorBody,
} from './anthropic-messages-error';
export { anthropicMessagesUpstream } from './anthropic-messages.upstream';
export { anthropicMessagesDialect } from './anthropic-messages.dialect';
