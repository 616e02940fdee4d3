export * from './admin.module';
export * from './setting.entity';
export * from './admin-token.service';
export * from './openapi/openapi-document';
