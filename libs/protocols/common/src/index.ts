export * from './wire-guards';
export * from './request-fields';
export * from './compact';
export * from './data-url';
export * from './synthesize-tool-call-id';
export * from './convert-routing-fields';
export * from './provider-signature';
export * from './upstream-protocol';
