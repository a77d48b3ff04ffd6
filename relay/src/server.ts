import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiEndpoints } from '@tandem/shared';
import type { DestinationStream } from 'pino';
import { Conversation } from './agent/conversation';
import { createPlanner } from './agent/planners';
import type { AgentDeps } from './agent/steps';
import {
  AccountService,
  AgentService,
  type Application,
  BrowseService,
  ConsoleService,
  HistoryService,
  ParkedSessionStore,
  QuotaGate,
  RetrieveService,
  Screenshots,
  SecretService,
  SessionOpener,
  SessionService,
  StepFeed,
  StepService,
  UsageService,
} from './app/index';
import { BrowserHost } from './browser/browser-host';
import { ProxyPool } from './browser/proxies';
import type { Config } from './config';
import { ExtensionGateway, extensionOrigins } from './gateway/gateway';
import { createApp } from './http/app';
import { MemoryRateLimiter } from './limits/limiter';
import { SignInGuard } from './limits/sign-in-guard';
import { createLogger, type Logger } from './logger';
import { modelClientFrom } from './model/index';
import { AllowList } from './network/allow-list';
import type { Connect } from './network/dial';
import { EgressProxy } from './network/egress-proxy';
import { NetworkGuard, type Resolver } from './network/network-guard';
import { configuredSecrets, redactor } from './redact';
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
/** JPEG quality of the step history's screenshots: legible in a timeline at a fifth of a PNG's size. */
const STEP_SCREENSHOT_QUALITY = 60;

export interface StartOptions {
  /** A ready logger (tests); by default one from LOG_LEVEL that masks the configuration's secrets. */
  logger?: Logger;
  /** Where the default logger writes (tests read every line the relay writes). */
  logDestination?: DestinationStream;
  /** How the egress proxy resolves names and opens connections (tests play DNS and distant networks). */
  network?: { resolve?: Resolver; connect?: Connect };
}

/** Starts the relay: store, browser host, egress proxy, sessions, HTTP. `close()` stops all of it. */
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
  // One code path: the proxy runs with the guard off too (it then connects by name, refusing nothing).
  const egress = await EgressProxy.start({
    host: config.TANDEM_EGRESS_HOST,
    port: config.TANDEM_EGRESS_PORT,
    url: config.TANDEM_EGRESS_URL,
    guard,
    connect: options.network?.connect,
    logger,
  });
  warnIfBrowserCannotReach(config, egress, logger);
  let store: Store;
  try {
    store = await Store.open({ dataDir: config.TANDEM_DATA_DIR, databaseUrl: config.TANDEM_DATABASE_URL }, logger);
  } catch (error) {
    await egress.close();
    throw error;
  }
  const screenshots = new ScreenshotStore(config.TANDEM_DATA_DIR, config.TANDEM_SCREENSHOT_TTL_HOURS * 3600_000);
  const historyMs = config.TANDEM_HISTORY_DAYS * 86_400_000;
  // The step history's screenshots live as long as the steps that show them.
  const stepScreenshots = new ScreenshotStore(config.TANDEM_DATA_DIR, historyMs, undefined, 'step-screenshots');
  const keepStepScreenshots = config.TANDEM_HISTORY_DAYS > 0 && config.TANDEM_HISTORY_SCREENSHOTS;
  const sweep = () => {
    screenshots.sweep();
    stepScreenshots.sweep();
    // Steps and sessions older than TANDEM_HISTORY_DAYS go; a store that is unreachable now is swept the next time.
    const before = Date.now() - historyMs;
    void Promise.all([
      store.history.prune(before),
      store.sessionRecords.prune(before),
      // Parked sessions no relay holds (this one restarted, or the one that parked them stopped).
      store.sessionRecords.expireParkedBefore(Date.now() - config.TANDEM_SESSION_IDLE_SECONDS * 1000),
    ]).catch((error: unknown) => logger.warn({ err: error }, 'old step history not pruned'));
  };
  // The sessions this relay had open before it stopped lived in its memory: they are over.
  const orphans = await store.sessionRecords.endAllOf(config.TANDEM_NODE_ID, 'relay_stopped').catch(() => 0);
  if (orphans) logger.info({ sessions: orphans }, 'sessions of the last run marked as ended by the restart');
  sweep();
  const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS).unref();

  let listening = '';
  const publicUrl = () => (config.TANDEM_PUBLIC_URL ?? listening).replace(/\/+$/, '');
  const browsers = new BrowserHost({
    executablePath: config.CHROMIUM_PATH,
    wsEndpoints: browserEndpoints(config),
    wsSetting: config.TANDEM_BROWSER_WS_ENDPOINTS?.length
      ? 'TANDEM_BROWSER_WS_ENDPOINTS'
      : 'TANDEM_BROWSER_WS_ENDPOINT',
    headless: config.TANDEM_HEADLESS,
    logger,
  });
  // Steps as they finish and sessions as they end, for live timelines.
  const feed = new StepFeed();
  const idleMs = config.TANDEM_SESSION_IDLE_SECONDS * 1000;
  // Parked sessions wait in the store, out of memory, where any relay on it can bring them back.
  const parked = new ParkedSessionStore({
    records: store.sessionRecords,
    nodeId: config.TANDEM_NODE_ID,
    idleMs,
    logger,
  });
  // The store's record of each session; a write that fails costs the session nothing.
  const recording = (what: string, write: () => Promise<unknown>) =>
    void write().catch((error: unknown) => logger.warn({ err: error }, `session record not ${what}`));
  const sessions = new SessionManager<Conversation>({
    nodeId: config.TANDEM_NODE_ID,
    maxSessions: config.TANDEM_MAX_SESSIONS,
    idleMs,
    parkAfterMs: config.TANDEM_PARK_AFTER_SECONDS * 1000,
    parked,
    maxParked: config.TANDEM_MAX_PARKED_SESSIONS,
    busyWaitMs: config.TANDEM_SESSION_BUSY_WAIT_SECONDS * 1000,
    logger,
    conversation: () => new Conversation(),
    // The session's token totals go out once, when it ends, so cost per session is in the logs.
    endFields: (conversation) => ({ usage: conversation.usage }),
    onOpen: (session) =>
      recording('written', () =>
        store.sessionRecords.opened({
          id: session.id,
          accountId: session.accountId,
          nodeId: config.TANDEM_NODE_ID,
          local: session.info.local,
          url: session.driver.url(),
          at: session.createdAt,
        }),
      ),
    onUsed: (session) =>
      recording('updated', () =>
        store.sessionRecords.used(session.id, { url: session.driver.url(), at: session.lastUsedAt }),
      ),
    onEnd: (sessionId, reason) => {
      feed.ended(sessionId, reason);
      recording('ended', () => store.sessionRecords.ended(sessionId, reason));
    },
  });
  const proxies = new ProxyPool(config.TANDEM_PROXY_URLS);
  // [local mode, issue 6] the extension gateway; attached to the HTTP server below.
  const gateway = new ExtensionGateway({
    store,
    logger,
    origins: extensionOrigins(config.TANDEM_EXTENSION_ORIGINS),
    graceMs: config.TANDEM_EXTENSION_GRACE_SECONDS * 1000,
  });
  const agent: AgentDeps = {
    planner,
    skills: store.skills,
    usage: store.usage,
    logger,
    dialogs: config.TANDEM_DIALOGS,
    history: {
      // Watchers of a live timeline hear a step even when history is off; the store keeps it when on.
      append: async (accountId, sessionId, entry) => {
        try {
          if (config.TANDEM_HISTORY_DAYS > 0) await store.history.append(accountId, sessionId, entry);
          await store.sessionRecords.stepped(sessionId, {
            step: entry.step,
            status: entry.status,
            url: entry.url,
            at: Date.parse(entry.at),
            screenshot: entry.screenshot,
          });
        } finally {
          feed.step(sessionId, entry);
        }
      },
      capture: keepStepScreenshots
        ? async (session) => {
            const jpeg = await session.driver.screenshot({ jpegQuality: STEP_SCREENSHOT_QUALITY });
            // Kept as a path: the relay's public URL may be another by the time the timeline is read.
            return `/v1/web/screenshots/${await stepScreenshots.save(jpeg, 'jpg')}`;
          }
        : undefined,
    },
  };
  const opener = new SessionOpener({
    sessions,
    profiles: store.agents,
    guardrails: store.guardrails,
    parked,
    records: store.sessionRecords,
    idleMs,
    browsers,
    proxies,
    guard,
    egress,
    gateway,
    logger,
    config,
  });
  // Through `services`, so the store the screenshot route serves from is the one answers save to (tests
  // swap it for one with a full disk).
  const shots = new Screenshots({ store: { save: (png) => services.screenshots.save(png) }, publicUrl, logger });
  const quota = new QuotaGate({ quotas: store.quotas, usage: store.usage });
  const sessionService = new SessionService(opener, shots);
  const signIns = SignInGuard.inMemory();
  const calls = { opener, profiles: store.agents, secrets: store.secrets, agent, screenshots: shots, guard, quota };
  const app: Application = {
    console: new ConsoleService({
      apiKeys: store.apiKeys,
      skills: store.skills,
      guardrails: store.guardrails,
      pairingCodes: store.pairingCodes,
      devices: store.devices,
      presence: gateway.presence,
      disconnect: (deviceId) => gateway.revokeDevice(deviceId),
    }),
    accounts: new AccountService({
      accounts: store.accounts,
      consoleSessions: store.consoleSessions,
      quotas: store.quotas,
      usage: store.usage,
      signIns,
      allowSignup: config.TANDEM_ALLOW_SIGNUP,
      forget: async (accountId) => {
        for (const device of await store.devices.list(accountId)) gateway.revokeDevice(device.id);
        await sessions.closeAllOf(accountId);
      },
    }),
    agents: new AgentService({ agents: store.agents, skills: store.skills }),
    secrets: new SecretService({ secrets: store.secrets }),
    usage: new UsageService({ usage: store.usage, quotas: store.quotas, apiKeys: store.apiKeys }),
    history: new HistoryService({
      history: store.history,
      records: store.sessionRecords,
      live: {
        list: (accountId) => sessions.list(accountId),
        live: (accountId) => sessions.live(accountId),
        endReason: (accountId, id) => sessions.endReason(accountId, id),
        close: (accountId, id) => sessionService.close(accountId, id),
      },
      feed,
      publicUrl,
      days: config.TANDEM_HISTORY_DAYS,
    }),
    sessions: sessionService,
    browse: new BrowseService({ ...calls, config }),
    steps: new StepService(calls),
    retrieve: new RetrieveService({
      opener,
      extraction: { config, model },
      usage: store.usage,
      screenshots: shots,
      guard,
      quota,
      config,
    }),
  };
  const services: Services = {
    config,
    api: apiEndpoints({ maxSteps: config.TANDEM_MAX_STEPS }),
    logger,
    store,
    app,
    screenshots,
    stepScreenshots,
    proxies,
    guard,
    egress,
    redact: redactor(secrets),
    planner,
    model,
    browsers,
    sessions,
    requestLimit:
      config.TANDEM_RATE_LIMIT_PER_MINUTE > 0
        ? new MemoryRateLimiter({ perMinute: config.TANDEM_RATE_LIMIT_PER_MINUTE })
        : undefined,
    signIns,
    publicUrl,
    version: VERSION,
    gateway,
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
    await egress.close();
    await store.close();
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
  logger.info({ url: listening, dataDir: config.TANDEM_DATA_DIR, database: store.backend }, 'relay listening');

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
        await services.sessions.closeAll('relay_stopped');
        await services.browsers.close();
        await egress.close();
        await store.close();
      })();
      return closing;
    },
  };
}

/** TANDEM_BROWSER_WS_ENDPOINTS, and TANDEM_BROWSER_WS_ENDPOINT (the one-server setting) with them. */
function browserEndpoints(config: Config): string[] {
  const list = config.TANDEM_BROWSER_WS_ENDPOINTS?.split(',').map((url) => url.trim()) ?? [];
  const all = [...list, config.TANDEM_BROWSER_WS_ENDPOINT];
  return [...new Set(all.filter((endpoint): endpoint is string => Boolean(endpoint)))];
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
