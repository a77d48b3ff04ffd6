import type { Endpoints } from '@tandem/shared';
import type { Conversation } from './agent/conversation';
import type { Planner } from './agent/planner';
import type { Application } from './app/index';
import type { BrowserHost } from './browser/browser-host';
import type { ProxyPool } from './browser/proxies';
import type { Cluster } from './cluster/cluster';
import type { Config } from './config';
import type { ExtensionGateway } from './gateway/gateway';
import type { RateLimiter } from './limits/limiter';
import type { SignInGuard } from './limits/sign-in-guard';
import type { Logger } from './logger';
import type { ModelClient } from './model/index';
import type { EgressProxy } from './network/egress-proxy';
import type { NetworkGuard } from './network/network-guard';
import type { SessionManager } from './sessions/manager';
import type { ImageStore } from './store/image-store';
import type { Store } from './store/store';

/** Everything the HTTP layer may use; built once by `startRelay`. Only src/http and the wiring import it. */
export interface Services {
  config: Config;
  /** The public API's endpoints with this relay's limits (TANDEM_MAX_STEPS): what routes validate with. */
  api: Endpoints;
  logger: Logger;
  store: Store;
  /** The use cases the routes call (browse, step, retrieve, sessions). */
  app: Application;
  /** The live sessions, each keeping the agent's conversation. */
  sessions: SessionManager<Conversation>;
  /** The other relays (one relay on its own without TANDEM_REDIS_URL): who holds what, a shared bus. */
  cluster: Cluster;
  browsers: BrowserHost;
  proxies: ProxyPool;
  /** The address policy of remote sessions (off when TANDEM_ALLOW_PRIVATE_NETWORK is true). */
  guard: NetworkGuard;
  /** The proxy every remote session's browser connects through; it applies `guard`. */
  egress: EgressProxy;
  /** Masks the configuration's secrets and URL credentials in text that leaves the relay. */
  redact(text: string): string;
  /** Answers' screenshots (kept TANDEM_SCREENSHOT_TTL_HOURS): the data directory, or the S3 bucket of TANDEM_S3_URL. */
  screenshots: ImageStore;
  /** The step history's screenshots (kept TANDEM_HISTORY_DAYS), beside the answers'. */
  stepScreenshots: ImageStore;
  /** The planner every session uses (LLM when a model is configured, else the built-in one). */
  planner: Planner;
  /** The one client of the model endpoint (planner and retrieve share what it learns about each model). */
  model: ModelClient;
  /** Requests per API key (TANDEM_RATE_LIMIT_PER_MINUTE; absent when 0, i.e. off). */
  requestLimit?: RateLimiter | undefined;
  /** Password guessing per account and per client address. */
  signIns: SignInGuard;
  /** Base URL clients reach the relay at (TANDEM_PUBLIC_URL, or the listening address). */
  publicUrl(): string;
  version: string;
  /** The extension gateway: local-mode devices, their presence and their session tabs. [local mode, issue 6] */
  gateway: ExtensionGateway;
}
