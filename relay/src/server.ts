import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlanner } from './agent/planners';
import { BrowserHost } from './browser/browser-host';
import { ProxyPool } from './browser/proxies';
import type { Config } from './config';
import { ExtensionGateway, extensionOrigins } from './gateway/gateway';
import { createApp } from './http/app';
import { createLogger, type Logger } from './logger';
import type { Services } from './services';
import { SessionManager } from './sessions/manager';
import { bootstrap, type FirstStartCredentials } from './store/bootstrap';
import { ScreenshotStore } from './store/screenshots';
import { Store } from './store/store';
import { VERSION } from './version';

export interface Relay {
  /** Where the relay listens, e.g. http://127.0.0.1:8787 */
  url: string;
  services: Services;
  /** Set on the first start with an empty database: shown once, never again. */
  firstStart?: FirstStartCredentials | undefined;
  close(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** Starts the relay: store, browser host, sessions, HTTP. `close()` stops all of it. */
export async function startRelay(config: Config, options: { logger?: Logger } = {}): Promise<Relay> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const planner = createPlanner(config, logger); // first: bad model settings fail before anything is opened
  const store = Store.open(config.TANDEM_DATA_DIR);
  const screenshots = new ScreenshotStore(config.TANDEM_DATA_DIR, config.TANDEM_SCREENSHOT_TTL_HOURS * 3600_000);
  screenshots.sweep();
  const sweeper = setInterval(() => screenshots.sweep(), SWEEP_INTERVAL_MS).unref();

  let listening = '';
  const services: Services = {
    config,
    logger,
    store,
    screenshots,
    proxies: new ProxyPool(config.TANDEM_PROXY_URLS),
    planner,
    browsers: new BrowserHost({
      executablePath: config.CHROMIUM_PATH,
      wsEndpoint: config.TANDEM_BROWSER_WS_ENDPOINT,
      headless: config.TANDEM_HEADLESS,
      logger,
    }),
    sessions: new SessionManager({
      nodeId: config.TANDEM_NODE_ID,
      maxSessions: config.TANDEM_MAX_SESSIONS,
      idleMs: config.TANDEM_SESSION_IDLE_SECONDS * 1000,
      busyWaitMs: config.TANDEM_SESSION_BUSY_WAIT_SECONDS * 1000,
      logger,
    }),
    publicUrl: () => (config.TANDEM_PUBLIC_URL ?? listening).replace(/\/+$/, ''),
    version: VERSION,
    // [local mode, issue 6] the extension gateway; attached to the HTTP server below.
    gateway: new ExtensionGateway({
      store,
      logger,
      origins: extensionOrigins(config.TANDEM_EXTENSION_ORIGINS),
      graceMs: config.TANDEM_EXTENSION_GRACE_SECONDS * 1000,
    }),
  };

  const server = createServer(createApp(services));
  services.gateway.attach(server); // [local mode, issue 6]
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
  } catch (error) {
    clearInterval(sweeper);
    await services.gateway.close();
    store.close();
    throw error;
  }
  // Only once listening: a first start that fails (port in use) must not create an account whose
  // password was never shown.
  const firstStart = await bootstrap(store, {
    adminEmail: config.TANDEM_ADMIN_EMAIL,
    bootstrapKey: config.TANDEM_BOOTSTRAP_KEY,
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  listening = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
  logger.info({ url: listening, dataDir: config.TANDEM_DATA_DIR }, 'relay listening');

  let closing: Promise<void> | undefined;
  return {
    url: listening,
    services,
    firstStart,
    close() {
      closing ??= (async () => {
        clearInterval(sweeper);
        await services.gateway.close(); // [local mode, issue 6] upgraded sockets outlive server.close()
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await services.sessions.closeAll();
        await services.browsers.close();
        store.close();
      })();
      return closing;
    },
  };
}
