export * from './dialog-answer';
export * from './dom';
export * from './errors';
export { EXTENSION_ID, EXTENSION_PUBLIC_KEY } from './identity';
export * from './messages';
export * from './page-events';
export * from './restricted';
export * from './tabs';
