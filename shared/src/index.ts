export * from './api/index';
export * from './protocol/index';
