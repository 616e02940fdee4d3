export * from './cache-control';
export * from './cache-settings';
export * from './cached-answer';
export * from './response-cache-key';
export * from './response-cache-store';
export * from './response-cache.service';
export * from './cache.module';
export * from './semantic-index.service';
