export { EXTENSION_ID, EXTENSION_PUBLIC_KEY } from './identity';
