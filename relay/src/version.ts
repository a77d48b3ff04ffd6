import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string; license?: string };

/** The relay's version, from its package.json. */
export const VERSION: string = pkg.version;

/** The relay's licence (an SPDX identifier, or UNLICENSED), from its package.json. */
export const LICENSE: string = pkg.license ?? 'UNLICENSED';
