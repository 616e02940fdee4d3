export * from './budget-period';
export * from './budget-store';
export * from './redis-budget-store';
export * from './budget.service';
export * from './budget.module';
export * from './budget-observer';
