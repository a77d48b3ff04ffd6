// Bundles the page runtime (src/page/entry.ts) into one IIFE string. Used by the build script and
// by the tests, which bundle fresh so they never run a stale build.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** @param {{ readable?: boolean }} [options] */
export async function bundlePageRuntime(options = {}) {
  const result = await build({
    entryPoints: [join(root, 'src/page/entry.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    minify: !options.readable,
    legalComments: 'none',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  // The runtime must not drag zod (or anything else from node_modules) into pages.
  const foreign = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
  if (foreign.length > 0) throw new Error(`page runtime bundle pulls in dependencies: ${foreign.join(', ')}`);
  return result.outputFiles[0].text;
}
