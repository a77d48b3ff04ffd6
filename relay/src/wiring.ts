import { apiEndpoints } from '@tandem/shared';
import { Conversation } from './agent/conversation';
import type { Planner } from './agent/planner';
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
import type { Cluster } from './cluster/cluster';
import type { RedisCluster } from './cluster/redis-cluster';
import type { Config } from './config';
import { ExtensionGateway, extensionOrigins } from './gateway/gateway';
import { MirroredPresence } from './gateway/presence';
import { MemoryRateLimiter } from './limits/limiter';
import { RedisRateLimiter } from './limits/redis-limits';
import { SignInGuard } from './limits/sign-in-guard';
import type { Logger } from './logger';
import type { ModelClient } from './model/index';
import type { EgressProxy } from './network/egress-proxy';
import type { NetworkGuard } from './network/network-guard';
import type { Services } from './services';
import type { Clock } from './sessions/clock';
import { SessionManager } from './sessions/manager';
import type { ImageStore } from './store/image-store';
import type { Store } from './store/store';
import { VERSION } from './version';

/** JPEG quality of the step history's screenshots: legible in a timeline at a fifth of a PNG's size. */
const STEP_SCREENSHOT_QUALITY = 60;

/** What the wiring is given: the relay's infrastructure, already started. */
export interface Infrastructure {
  config: Config;
  logger: Logger;
  store: Store;
  model: ModelClient;
  planner: Planner;
  guard: NetworkGuard;
  egress: EgressProxy;
  cluster: Cluster;
  /** The cluster's Redis, when there is one: rate limits and sign-in failures are counted there. */
  redis: RedisCluster['redis'] | undefined;
  screenshots: ImageStore;
  stepScreenshots: ImageStore;
  redact(text: string): string;
  publicUrl(): string;
  /** Whose time sessions expire and park by (tests bring their own). */
  clock: Clock;
}

/** Builds every part of the relay above its infrastructure once: sessions, gateway, the agent, the use cases. */
export function wireRelay(infra: Infrastructure): Services {
  const { config, logger, store, cluster, publicUrl, clock } = infra;
  const idleMs = config.TANDEM_SESSION_IDLE_SECONDS * 1000;
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
  // Parked sessions wait in the store, out of memory, where any relay on it can bring them back.
  const parked = new ParkedSessionStore({
    records: store.sessionRecords,
    nodeId: config.TANDEM_NODE_ID,
    directory: cluster,
    idleMs,
    clock,
    logger,
  });
  // A write to the store or the cluster that fails costs the session nothing: it is logged.
  const quietly = (what: string, write: () => Promise<unknown>) =>
    void write().catch((error: unknown) => logger.warn({ err: error }, `${what} failed`));
  const sessions = new SessionManager<Conversation>({
    nodeId: config.TANDEM_NODE_ID,
    maxSessions: config.TANDEM_MAX_SESSIONS,
    idleMs,
    parkAfterMs: config.TANDEM_PARK_AFTER_SECONDS * 1000,
    parked,
    clock,
    maxParked: config.TANDEM_MAX_PARKED_SESSIONS,
    busyWaitMs: config.TANDEM_SESSION_BUSY_WAIT_SECONDS * 1000,
    logger,
    conversation: () => new Conversation(),
    // The session's token totals go out once, when it ends, so cost per session is in the logs.
    endFields: (conversation) => ({ usage: conversation.usage }),
    onOpen: (session) => {
      quietly('writing the session record', () =>
        store.sessionRecords.opened({
          id: session.id,
          accountId: session.accountId,
          nodeId: config.TANDEM_NODE_ID,
          local: session.info.local,
          url: session.driver.url(),
          at: session.createdAt,
        }),
      );
      quietly('claiming the session in the cluster', () => cluster.claim(session.id, idleMs));
    },
    onUsed: (session) => {
      quietly('updating the session record', () =>
        store.sessionRecords.used(session.id, { url: session.driver.url(), at: session.lastUsedAt }),
      );
      if (!session.parked) quietly('refreshing the session in the cluster', () => cluster.touch(session.id, idleMs));
    },
    onEnd: (sessionId, reason) => {
      feed.ended(sessionId, reason);
      quietly('ending the session record', () => store.sessionRecords.ended(sessionId, reason));
      quietly('releasing the session in the cluster', () => cluster.release(sessionId));
    },
  });
  const proxies = new ProxyPool(config.TANDEM_PROXY_URLS);
  // [local mode, issue 6] the extension gateway; attached to the HTTP server by startRelay. The other
  // relays hear which extensions this one holds, so local-mode requests landing there come here.
  const gateway = new ExtensionGateway({
    store,
    logger,
    origins: extensionOrigins(config.TANDEM_EXTENSION_ORIGINS),
    graceMs: config.TANDEM_EXTENSION_GRACE_SECONDS * 1000,
    presence: new MirroredPresence(cluster, (error) => logger.warn({ err: error }, 'extension presence not shared')),
  });
  // Commands every relay must carry out, wherever they were asked for.
  cluster.onMessage((message) => {
    if (message.type === 'revoke-device') gateway.revokeDevice(message.deviceId);
    if (message.type === 'forget-account') void sessions.closeAllOf(message.accountId);
    if (message.type === 'session-taken' && message.node !== config.TANDEM_NODE_ID) sessions.letGo(message.sessionId);
  });
  const agent: AgentDeps = {
    planner: infra.planner,
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
      capture:
        config.TANDEM_HISTORY_DAYS > 0 && config.TANDEM_HISTORY_SCREENSHOTS
          ? async (session) => {
              const jpeg = await session.driver.screenshot({ jpegQuality: STEP_SCREENSHOT_QUALITY });
              // Kept as a path: the relay's public URL may be another by the time the timeline is read.
              return `/v1/web/screenshots/${await services.stepScreenshots.save(jpeg, 'jpg')}`;
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
    cluster,
    idleMs,
    clock,
    browsers,
    proxies,
    guard: infra.guard,
    egress: infra.egress,
    gateway,
    logger,
    config,
  });
  // Through `services`, so the store the screenshot route serves from is the one answers save to (tests
  // swap it for one with a full disk).
  const shots = new Screenshots({ store: { save: (png) => services.screenshots.save(png) }, publicUrl, logger });
  const quota = new QuotaGate({ quotas: store.quotas, usage: store.usage });
  const sessionService = new SessionService(opener, shots);
  const signIns = infra.redis ? SignInGuard.onRedis(infra.redis) : SignInGuard.inMemory();
  const calls = {
    opener,
    profiles: store.agents,
    secrets: store.secrets,
    agent,
    screenshots: shots,
    guard: infra.guard,
    quota,
  };
  const app: Application = {
    console: new ConsoleService({
      apiKeys: store.apiKeys,
      skills: store.skills,
      guardrails: store.guardrails,
      pairingCodes: store.pairingCodes,
      devices: store.devices,
      presence: {
        forAccount: async (accountId) => [
          ...gateway.presence.forAccount(accountId),
          ...(await cluster.devicesElsewhere(accountId)).map((d) => ({ ...d, connected: true, since: 0 })),
        ],
      },
      // The device's socket may be held by another relay: every relay hears it.
      disconnect: (deviceId) => cluster.broadcast({ type: 'revoke-device', deviceId }),
    }),
    accounts: new AccountService({
      accounts: store.accounts,
      consoleSessions: store.consoleSessions,
      quotas: store.quotas,
      usage: store.usage,
      signIns,
      allowSignup: config.TANDEM_ALLOW_SIGNUP,
      forget: async (accountId) => {
        for (const device of await store.devices.list(accountId)) {
          await cluster.broadcast({ type: 'revoke-device', deviceId: device.id });
        }
        await cluster.broadcast({ type: 'forget-account', accountId });
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
      holderOf: (sessionId) => cluster.holderOf(sessionId),
      days: config.TANDEM_HISTORY_DAYS,
    }),
    sessions: sessionService,
    browse: new BrowseService({ ...calls, config }),
    steps: new StepService(calls),
    retrieve: new RetrieveService({
      opener,
      extraction: { config, model: infra.model },
      usage: store.usage,
      screenshots: shots,
      guard: infra.guard,
      quota,
      config,
    }),
  };
  const perMinute = config.TANDEM_RATE_LIMIT_PER_MINUTE;
  const services: Services = {
    config,
    api: apiEndpoints({ maxSteps: config.TANDEM_MAX_STEPS }),
    logger,
    store,
    app,
    screenshots: infra.screenshots,
    stepScreenshots: infra.stepScreenshots,
    proxies,
    guard: infra.guard,
    egress: infra.egress,
    redact: infra.redact,
    planner: infra.planner,
    model: infra.model,
    browsers,
    sessions,
    cluster,
    requestLimit:
      perMinute > 0
        ? infra.redis
          ? new RedisRateLimiter(infra.redis, { perMinute })
          : new MemoryRateLimiter({ perMinute })
        : undefined,
    signIns,
    publicUrl,
    version: VERSION,
    gateway,
  };
  return services;
}

/** TANDEM_BROWSER_WS_ENDPOINTS, and TANDEM_BROWSER_WS_ENDPOINT (the one-server setting) with them. */
export function browserEndpoints(config: Config): string[] {
  const list = config.TANDEM_BROWSER_WS_ENDPOINTS?.split(',').map((url) => url.trim()) ?? [];
  const all = [...list, config.TANDEM_BROWSER_WS_ENDPOINT];
  return [...new Set(all.filter((endpoint): endpoint is string => Boolean(endpoint)))];
}
