import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { buildOpenApiDocument } from '@tandem/shared';
import express, { Router } from 'express';
import type { Config } from '../../config';
import type { Services } from '../../services';
import { LICENSE, VERSION } from '../../version';

const swaggerDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Tandem API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body { margin: 0 } .topbar { display: none }</style>
</head>
<body>
  <div id="api"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#api',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: false,
  // The base layout shows no validator badge today; this keeps Swagger UI from ever sending the spec's
  // URL to validator.swagger.io should a layout with the badge be chosen.
  validatorUrl: null,
});`;

/** The relay's OpenAPI document: what `/v1/openapi.json` serves and `npm run lint` checks. */
export function openApiDocument(serverUrl: string, config: Pick<Config, 'TANDEM_MAX_STEPS'>): Record<string, unknown> {
  return buildOpenApiDocument({
    serverUrl,
    version: VERSION,
    license: LICENSE,
    limits: { maxSteps: config.TANDEM_MAX_STEPS },
  });
}

/** The OpenAPI document and a browsable reference served from local files (works offline). Public: no secrets. */
export function docsRoutes(services: Services): Router {
  const router = Router();
  let document: Record<string, unknown> | undefined;
  router.get('/v1/openapi.json', (_req, res) => {
    document ??= openApiDocument(services.publicUrl(), services.config);
    res.json(document);
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(DOCS_INIT);
  });
  router.use('/docs/assets', express.static(swaggerDir, { index: false, maxAge: '1d' }));
  return router;
}
