import express, { type Express } from 'express';
import type { Services } from '../services';
import { rateLimit, requireApiKey } from './auth';
import { consoleAuth } from './console-auth';
import { errorHandler, notFoundHandler } from './error-handler';
import { forwardToHolder } from './forward';
import { requestContext } from './request-context';
import { browseRoutes } from './routes/browse';
import { consoleRoutes } from './routes/console';
import { consoleAccountRoutes } from './routes/console-accounts';
import { consoleAgentRoutes } from './routes/console-agents';
import { consoleMeRoutes, consoleSignInRoutes } from './routes/console-auth';
import { consolePageRoutes } from './routes/console-pages';
import { consoleUsageRoutes } from './routes/console-usage';
import { docsRoutes } from './routes/docs';
import { extensionRoutes } from './routes/extension';
import { historyRoutes } from './routes/history';
import { retrieveRoutes } from './routes/retrieve';
import { screenshotRoutes } from './routes/screenshots';
import { sessionRoutes } from './routes/sessions';

export function createApp(services: Services): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestContext(services.logger, services.redact));

  app.get('/', (_req, res) => res.redirect('/console'));
  app.get('/healthz', (_req, res) => {
    res.json({
      ok: true,
      version: services.version,
      sessions: services.sessions.size,
      parked: services.sessions.parkedCount,
    });
  });
  app.use(docsRoutes(services));
  app.use(consolePageRoutes(services));
  app.use(screenshotRoutes(services));

  // Signing in to the console needs no credential (and parses its own small bodies).
  app.use(consoleSignInRoutes(services));
  // Auth before body parsing: a caller without a key hears 401, not details about its body; a caller
  // over its rate hears 429 before its body costs anything. The admin API also takes the console's cookie.
  app.use('/v1/web', requireApiKey(services.store));
  app.use('/v1/console', consoleAuth(services));
  for (const prefix of ['/v1/web', '/v1/console']) {
    if (services.requestLimit)
      app.use(prefix, rateLimit(services.requestLimit, services.config.TANDEM_RATE_LIMIT_PER_MINUTE));
  }
  // Every body is read as JSON whatever its Content-Type, so `curl -d '{...}'` works as typed.
  app.use(express.json({ limit: '1mb', type: () => true, strict: false }));
  app.use(sessionRoutes(services));
  app.use(browseRoutes(services));
  app.use(retrieveRoutes(services));
  app.use(historyRoutes(services));
  app.use(consoleMeRoutes(services));
  app.use(consoleAccountRoutes(services));
  app.use(consoleRoutes(services));
  app.use(consoleAgentRoutes(services));
  app.use(consoleUsageRoutes(services));
  app.use(extensionRoutes(services)); // [local mode, issue 6] POST/DELETE /v1/extension/token (own auth)

  app.use(notFoundHandler);
  // A request for what another relay holds is passed on to it (only errors of that kind stop here).
  app.use(forwardToHolder(services));
  app.use(errorHandler);
  return app;
}
