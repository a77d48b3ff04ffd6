export * from './actions/index';
export * from './api/index';
export * from './protocol/index';
