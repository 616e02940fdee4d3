export * from './ip-ranges';
export * from './pinned-dispatcher';
export * from './vet-upstream-url';
