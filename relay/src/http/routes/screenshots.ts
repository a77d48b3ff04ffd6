import { readFile } from 'node:fs/promises';
import { Router } from 'express';
import { NotFound } from '../../errors';
import type { Services } from '../../services';

const GONE =
  'No such screenshot. Screenshot URLs are kept 24 hours; take a new one with GET /v1/web/screenshot/{session_id}.';

/**
 * Serves stored screenshots. The 128-bit token in the URL is the credential, so no API key is needed.
 * The file is read by its explicit path under the data directory, not with `res.sendFile`, which
 * refuses any path through a dot-named folder — and the default data directory is `.tandem`.
 */
export function screenshotRoutes(services: Services): Router {
  const router = Router();
  router.get('/v1/web/screenshots/:file', async (req, res) => {
    const token = /^(\w+)\.png$/.exec(req.params.file)?.[1];
    const path = token && services.screenshots.pathOf(token);
    if (!path) throw new NotFound(GONE);
    let png: Buffer;
    try {
      png = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new NotFound(GONE);
      throw error;
    }
    res.set({ 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=86400' }).send(png);
  });
  return router;
}
