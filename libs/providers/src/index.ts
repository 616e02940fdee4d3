export * from './abort-line';
export * from './provider-adapter';
export * from './http-transport';
export * from './upstream-error';
export * from './upstream-call';
export * from './providers.module';
export * from './protocol-adapter';
export * from './ssrf';
