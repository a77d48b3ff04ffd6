import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { type Response, Router } from 'express';
import type { Services } from '../../services';

/** The console's browser code (TSX, Preact, Pico CSS): read from disk and bundled here, never imported. */
const UI_DIR = fileURLToPath(new URL('../../console/', import.meta.url));
const ASSETS = '/console/assets/';

/** What every console page response carries: nothing but the relay's own files runs, and no one frames it. */
const SECURITY_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

const CONTENT_TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
};

interface Asset {
  body: Buffer;
  type: string;
}

interface ConsoleBundle {
  shell: string;
  assets: Map<string, Asset>;
}

// The mark in the page's corner and tab: two strokes side by side, for "tandem".
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0172ad"/><path d="M9 22V10m7 12V10m7 12V10" stroke="#fff" stroke-width="3.2" stroke-linecap="round"/></svg>`;

/**
 * The console imports only types from @tandem/shared: a value import would pull zod and the whole
 * contract into the page, so it fails the bundle instead.
 */
const typesOnlyFromShared: Plugin = {
  name: 'types-only-from-shared',
  setup(b) {
    b.onResolve({ filter: /^@tandem\// }, (args) => ({
      errors: [{ text: `${args.path}: the console imports only types from it (import type { … })` }],
    }));
  },
};

async function bundleConsole(): Promise<ConsoleBundle> {
  const result = await build({
    absWorkingDir: UI_DIR,
    entryPoints: { app: 'main.tsx', style: 'styles.css' },
    tsconfig: 'tsconfig.json',
    bundle: true,
    minify: true,
    write: false,
    outdir: 'out',
    entryNames: '[name]-[hash]',
    format: 'esm',
    target: ['chrome111', 'edge111', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    logLevel: 'silent',
    plugins: [typesOnlyFromShared],
  });
  const assets = new Map<string, Asset>();
  const names: Record<string, string> = {};
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const ext = name.slice(name.lastIndexOf('.') + 1);
    assets.set(name, { body: Buffer.from(file.contents), type: CONTENT_TYPES[ext] ?? 'application/octet-stream' });
    names[ext] = name;
  }
  assets.set('icon.svg', { body: Buffer.from(ICON), type: CONTENT_TYPES.svg! });
  return { shell: shellPage(`${ASSETS}${names.js}`, `${ASSETS}${names.css}`), assets };
}

/** The one HTML page: the app renders into it and routes on the client (History API). */
function shellPage(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>Tandem console</title>
  <link rel="icon" href="${ASSETS}icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="${style}">
  <script type="module" src="${script}"></script>
</head>
<body>
  <div id="app"></div>
  <noscript>The Tandem console needs JavaScript. The admin API (/v1/console/…) does everything it does.</noscript>
</body>
</html>
`;
}

function secured(res: Response): Response {
  return res.set(SECURITY_HEADERS);
}

/**
 * The developer console's pages: /console and every path under it answer the app's page; its scripts and
 * styles are bundled with esbuild on the first request (in memory, once) and served under hashed names.
 */
export function consolePageRoutes(services: Services): Router {
  const router = Router();
  let bundle: Promise<ConsoleBundle> | undefined;
  const load = () => {
    bundle ??= bundleConsole().catch((error: unknown) => {
      // A failed bundle is tried again on the next request rather than remembered.
      bundle = undefined;
      services.logger.error({ err: error }, 'the console could not be bundled');
      throw error;
    });
    return bundle;
  };

  router.get(`${ASSETS}:name`, async (req, res) => {
    const asset = (await load()).assets.get(req.params.name);
    if (!asset) {
      secured(res).status(404).type('text/plain').send('No such console file: reload the console page.');
      return;
    }
    // Names carry a hash of their content: a new build is a new name, so they never need to be asked again.
    secured(res)
      .set({ 'Content-Type': asset.type, 'Cache-Control': 'public, max-age=31536000, immutable' })
      .send(asset.body);
  });
  router.get(['/console', '/console/{*path}'], async (_req, res) => {
    const { shell } = await load();
    secured(res).set('Cache-Control', 'no-cache').type('html').send(shell);
  });
  return router;
}
