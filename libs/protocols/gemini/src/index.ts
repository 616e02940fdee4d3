export * from './gemini-error';
