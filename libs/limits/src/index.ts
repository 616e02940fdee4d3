export * from './plan.entity';
export * from './plan.record';
export * from './plan.repository';
export * from './plan-cache.service';
export * from './limits.module';
export * from './token-estimator';
export * from './limiter';
export * from './budget';
