export * from './data-source.factory';
export * from './invalidation-bus';
export * from './ledger/ledger-months';
export * from './migrations';
export * from './persistence.module';
export * from './reloading-table';
export * from './transaction-scope';
