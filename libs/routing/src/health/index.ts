export * from './rolling-stats';
export * from './circuit-breaker';
export * from './circuit-breaker.service';
export * from './endpoint-health.service';
export * from './health.module';
