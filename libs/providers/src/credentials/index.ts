export * from './refreshing-token';
export * from './upstream-credential';
export * from './google-access-token';
export * from './azure-ad-token';
export * from './platform-request';
