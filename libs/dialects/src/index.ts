export * from './dialects.module';
export * from './common/http-types';
export * from './common/render-error';
export * from './common/dialect-exception.filter';
export * from './common/read-json-body';
export * from './lane/chat-lane.service';
export { parseGeminiModelPath } from './gemini/gemini-model-path';
