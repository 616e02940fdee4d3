export * from './anthropic-messages-error';
