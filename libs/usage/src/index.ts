export * from './usage-entry';
export * from './usage.repository';
export * from './usage-recorder.service';
export * from './usage.module';
export * from './usd';
export * from './usage-report';
export * from './ledger-page';
