export * from './browse';
export * from './common';
export * from './endpoints';
export * from './errors';
export * from './extension';
export * from './openapi';
export * from './retrieve';
export * from './sessions';
