import { createRequire } from 'node:module';

/** The relay's version, from its package.json. */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version;
