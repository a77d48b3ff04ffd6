import { pipeline } from 'node:stream/promises';
import { Router } from 'express';
import { NotFound } from '../../errors';
import { pathForLog } from '../../redact';
import type { Services } from '../../services';
import { CONTENT_TYPES } from '../../store/image-store';

const GONE =
  'No such screenshot. Screenshot URLs are kept 24 hours; take a new one with GET /v1/web/screenshot/{session_id}.';

/**
 * Serves stored screenshots (answers' and the step history's), from the data directory or the S3 bucket,
 * streamed as the store hands them over. The 128-bit token in the URL is the credential, so no API key is
 * needed; with S3 the bucket stays private and clients never see where the image lives.
 * A file is opened by its explicit path under the data directory, not with `res.sendFile`, which
 * refuses any path through a dot-named folder — and the default data directory is `.tandem`.
 */
export function screenshotRoutes(services: Services): Router {
  const router = Router();
  router.get('/v1/web/screenshots/:file', async (req, res) => {
    const { file } = req.params;
    // Answers' screenshots, then the step history's (kept as long as the history).
    const found = (await services.screenshots.open(file)) ?? (await services.stepScreenshots.open(file));
    if (!found) throw new NotFound(GONE);
    res.set({ 'Content-Type': CONTENT_TYPES[found.kind], 'Cache-Control': 'private, max-age=86400' });
    if (found.size !== undefined) res.set('Content-Length', String(found.size));
    // Once the first bytes are out the status is sent: a store that fails mid-image (or a client that
    // leaves) can only cut the answer short, so it is logged rather than answered.
    await pipeline(found.body, res).catch((error: unknown) => {
      if (!res.headersSent) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return; // the client left
      services.logger.warn({ err: error, path: pathForLog(req.path) }, 'screenshot not served whole');
    });
  });
  return router;
}
