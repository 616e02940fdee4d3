export * from './dialects.module';
export * from './common/http-types';
export * from './common/render-error';
export * from './common/dialect-exception.filter';
export * from './common/read-json-body';
export * from './data-plane/data-plane.service';
export * from './data-plane/data-plane-routes';
export * from './route/route-endpoint.service';
