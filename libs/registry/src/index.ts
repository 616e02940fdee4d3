export * from './catalog';
export * from './model-id';
export * from './registry.service';
export * from './registry.module';
export * from './model-record';
