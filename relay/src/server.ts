import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DestinationStream } from 'pino';
import { createPlanner } from './agent/planners';
import { type Cluster, LocalCluster } from './cluster/cluster';
import { RedisCluster } from './cluster/redis-cluster';
import type { Config } from './config';
import { createApp } from './http/app';
import { createLogger, type Logger } from './logger';
import { modelClientFrom } from './model/index';
import { AllowList } from './network/allow-list';
import type { Connect } from './network/dial';
import { EgressProxy } from './network/egress-proxy';
import { NetworkGuard, type Resolver } from './network/network-guard';
import { configuredSecrets, redactor } from './redact';
import type { Services } from './services';
import { type Clock, SYSTEM_CLOCK } from './sessions/clock';
import { bootstrap, type FirstStartCredentials } from './store/bootstrap';
import type { ImageStore } from './store/image-store';
import { S3Bucket } from './store/s3-bucket';
import { S3ImageStore } from './store/s3-images';
import { parseS3Url } from './store/s3-url';
import { ScreenshotStore } from './store/screenshots';
import { Store } from './store/store';
import { browserEndpoints, wireRelay } from './wiring';

export interface Relay {
  /** Where the relay listens, e.g. http://127.0.0.1:8787 */
  url: string;
  services: Services;
  /** Set on the first start with an empty database: shown once, never again. */
  firstStart?: FirstStartCredentials | undefined;
  close(): Promise<void>;
}

const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const STOP_ORDER = ['sweepers', 'gateway', 'server', 'sessions', 'browsers', 'cluster', 'store', 'egress'] as const;
/** How often a relay of a cluster looks for sessions left live on a relay that stopped. */
const ORPHAN_SWEEP_MS = 15_000;

export interface StartOptions {
  /** A ready logger (tests); by default one from LOG_LEVEL that masks the configuration's secrets. */
  logger?: Logger;
  /** Where the default logger writes (tests read every line the relay writes). */
  logDestination?: DestinationStream;
  /** How the egress proxy resolves names and opens connections (tests play DNS and distant networks). */
  network?: { resolve?: Resolver; connect?: Connect };
  /** Whose time sessions expire and park by: the system's, or a test's that moves when told. */
  clock?: Clock;
}

/**
 * Starts the relay: egress proxy, store, HTTP listener, cluster, then everything above them (wiring.ts).
 * `close()` stops all of it. Whatever fails on the way closes what was started before it.
 */
export async function startRelay(config: Config, options: StartOptions = {}): Promise<Relay> {
  const secrets = configuredSecrets(config);
  const logger = options.logger ?? createLogger(config.LOG_LEVEL, { secrets, destination: options.logDestination });
  const model = modelClientFrom(config, logger);
  const planner = createPlanner(config, logger, model); // first: bad model settings fail before anything is opened
  const guard = new NetworkGuard({
    enabled: !config.TANDEM_ALLOW_PRIVATE_NETWORK,
    allow: new AllowList(config.TANDEM_ALLOW_HOSTS),
    resolve: options.network?.resolve,
  });
  // What has been started, stopped in this order by close() or by a start that fails half way: the
  // listener first (no new work), then sessions and what they use, the store and the proxy last.
  const stops: Partial<Record<(typeof STOP_ORDER)[number], () => Promise<unknown>>> = {};
  const unwind = async () => {
    for (const name of STOP_ORDER) {
      const stop = stops[name];
      delete stops[name];
      await stop?.().catch((error: unknown) => logger.warn({ err: error, part: name }, 'not stopped cleanly'));
    }
  };
  try {
    // One code path: the proxy runs with the guard off too (it then connects by name, refusing nothing).
    const egress = await EgressProxy.start({
      host: config.TANDEM_EGRESS_HOST,
      port: config.TANDEM_EGRESS_PORT,
      url: config.TANDEM_EGRESS_URL,
      guard,
      connect: options.network?.connect,
      logger,
    });
    stops.egress = () => egress.close();
    warnIfBrowserCannotReach(config, egress, logger);
    const store = await Store.open(
      { dataDir: config.TANDEM_DATA_DIR, databaseUrl: config.TANDEM_DATABASE_URL },
      logger,
    );
    stops.store = () => store.close();

    // Listening comes before the rest so the relay knows its address (the cluster hands it to the others);
    // until everything is wired, requests are told to come back.
    let handle: RequestListener = (_req, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json', 'Retry-After': '1' });
      res.end('{"statusCode":503,"error":"Service Unavailable","message":"The relay is starting. Retry in a second."}');
    };
    const server = createServer((req, res) => handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.PORT, config.HOST, () => resolve());
    });
    stops.server = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    const listening = `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${port}`;
    const publicUrl = () => (config.TANDEM_PUBLIC_URL ?? listening).replace(/\/+$/, '');

    const self = { id: config.TANDEM_NODE_ID, url: (config.TANDEM_NODE_URL ?? listening).replace(/\/+$/, '') };
    const cluster: Cluster = config.TANDEM_REDIS_URL
      ? await RedisCluster.join(config.TANDEM_REDIS_URL, self, logger)
      : new LocalCluster(self);
    stops.cluster = () => cluster.close();

    const historyMs = config.TANDEM_HISTORY_DAYS * 86_400_000;
    const services = wireRelay({
      config,
      logger,
      store,
      model,
      planner,
      guard,
      egress,
      cluster,
      redis: cluster instanceof RedisCluster ? cluster.redis : undefined,
      ...imageStores(config, historyMs),
      redact: redactor(secrets),
      publicUrl,
      clock: options.clock ?? SYSTEM_CLOCK,
    });
    stops.gateway = () => services.gateway.close(); // [local mode, issue 6] upgraded sockets outlive server.close()
    stops.sessions = () => services.sessions.closeAll('relay_stopped');
    stops.browsers = () => services.browsers.close();

    // The sessions this relay had live before it stopped were in its memory: they are over.
    const orphans = await store.sessionRecords.endAllOf(config.TANDEM_NODE_ID, 'relay_stopped');
    if (orphans) logger.info({ sessions: orphans }, 'live sessions of the last run marked as ended');
    const sweep = () => sweepStore(services, historyMs);
    sweep();
    const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS).unref();
    const orphanSweeper = cluster.shared
      ? setInterval(() => void endOrphans(services), ORPHAN_SWEEP_MS).unref()
      : undefined;
    stops.sweepers = async () => {
      clearInterval(sweeper);
      clearInterval(orphanSweeper);
    };

    handle = createApp(services);
    services.gateway.attach(server); // [local mode, issue 6]
    // Only once listening: a first start that fails (port in use) must not create an account whose
    // password was never shown.
    const firstStart = await bootstrap(store, {
      adminEmail: config.TANDEM_ADMIN_EMAIL,
      bootstrapKey: config.TANDEM_BOOTSTRAP_KEY,
    });
    logger.info(
      {
        url: listening,
        node: self.id,
        cluster: cluster.shared,
        dataDir: config.TANDEM_DATA_DIR,
        database: store.backend,
        screenshots: config.TANDEM_S3_URL ? 's3' : 'data directory',
      },
      'relay listening',
    );
    let closing: Promise<void> | undefined;
    return {
      url: listening,
      services,
      firstStart,
      close() {
        closing ??= unwind();
        return closing;
      },
    };
  } catch (error) {
    await unwind();
    throw error;
  }
}

/**
 * The two shelves of screenshots: answers' (kept TANDEM_SCREENSHOT_TTL_HOURS) and the step history's (as
 * long as the steps that show them), as files in the data directory or, with TANDEM_S3_URL, as objects
 * under `screenshots/` and `step-screenshots/` in one bucket that every relay of a cluster shares.
 */
function imageStores(config: Config, historyMs: number): { screenshots: ImageStore; stepScreenshots: ImageStore } {
  const answersMs = config.TANDEM_SCREENSHOT_TTL_HOURS * 3600_000;
  if (config.TANDEM_S3_URL) {
    const location = parseS3Url(config.TANDEM_S3_URL); // checked by loadConfig already
    const bucket = new S3Bucket(location);
    return {
      screenshots: new S3ImageStore(bucket, answersMs, { prefix: location.prefix, folder: 'screenshots' }),
      stepScreenshots: new S3ImageStore(bucket, historyMs, { prefix: location.prefix, folder: 'step-screenshots' }),
    };
  }
  return {
    screenshots: new ScreenshotStore(config.TANDEM_DATA_DIR, answersMs),
    stepScreenshots: new ScreenshotStore(config.TANDEM_DATA_DIR, historyMs, undefined, 'step-screenshots'),
  };
}

/**
 * Deletes screenshots past their time and what outlived TANDEM_HISTORY_DAYS, and expires parked sessions
 * no relay holds; a store that is down is swept next time. Every relay of a cluster sweeps the shared
 * bucket and database: deleting what another relay already deleted is harmless.
 */
function sweepStore(services: Services, historyMs: number): void {
  const { store, config, logger } = services;
  for (const [shelf, images] of [
    ['screenshots', services.screenshots],
    ['step screenshots', services.stepScreenshots],
  ] as const) {
    void images.sweep().catch((error: unknown) => logger.warn({ err: error, shelf }, 'old screenshots not swept'));
  }
  const before = Date.now() - historyMs;
  void Promise.all([
    store.history.prune(before),
    store.sessionRecords.prune(before),
    // Parked sessions no relay holds (this one restarted, or the one that parked them stopped).
    store.sessionRecords.expireParkedBefore(Date.now() - config.TANDEM_SESSION_IDLE_SECONDS * 1000),
  ]).catch((error: unknown) => logger.warn({ err: error }, 'old history and sessions not swept'));
}

/** Live sessions of relays that stopped: their browsers went with them, so their records say so. */
async function endOrphans(services: Services): Promise<void> {
  try {
    for (const node of await services.store.sessionRecords.liveNodes()) {
      if (!(await services.cluster.alive(node))) {
        const ended = await services.store.sessionRecords.endAllOf(node, 'node_stopped');
        if (ended) services.logger.warn({ node, sessions: ended }, 'a relay stopped: its live sessions ended');
      }
    }
  } catch (error) {
    services.logger.warn({ err: error }, 'sessions of stopped relays not looked for');
  }
}

/**
 * A browser server elsewhere reaches the egress proxy only at an address it can route to; a loopback
 * one is its own machine. Said at start, since every page load would otherwise fail with a proxy error.
 */
function warnIfBrowserCannotReach(config: Config, egress: EgressProxy, logger: Logger): void {
  const endpoints = browserEndpoints(config);
  if (!endpoints.length || config.TANDEM_EGRESS_URL) return;
  const loopback = (host: string) => /^(localhost|127\.|\[::1\]$)/.test(host);
  const elsewhere = endpoints.some((endpoint) => !loopback(new URL(endpoint).hostname));
  if (loopback(new URL(egress.url).hostname) && elsewhere) {
    logger.warn(
      { egress: egress.url },
      'TANDEM_BROWSER_WS_ENDPOINT is on another machine but the egress proxy listens on loopback: set TANDEM_EGRESS_HOST (and TANDEM_EGRESS_URL) to an address the browser server can reach',
    );
  }
}
