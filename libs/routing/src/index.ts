export * from './attempt';
export * from './outcome';
export * from './provider-directory.service';
export * from './routing.service';
export * from './executor.service';
export * from './chat.service';
export * from './routing.module';
