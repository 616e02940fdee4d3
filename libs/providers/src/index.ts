export * from './provider-adapter';
export * from './http-transport';
export * from './upstream-error';
export * from './upstream-call';
export * from './providers.module';
export * from './openai/openai-chat.adapter';
export * from './anthropic/anthropic-messages.adapter';
export * from './gemini/gemini.adapter';
