export * from './dialect-list';
export * from './paths';
