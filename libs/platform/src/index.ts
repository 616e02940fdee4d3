export * from './config';
export * from './logger';
export * from './request-id';
export * from './access-log';
export * from './dialect';
export * from './validate-body';
export * from './redis';
export * from './platform.module';
