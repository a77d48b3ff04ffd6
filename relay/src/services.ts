import type { Planner } from './agent/planner';
import type { BrowserHost } from './browser/browser-host';
import type { ProxyPool } from './browser/proxies';
import type { Config } from './config';
import type { ExtensionGateway } from './gateway/gateway';
import type { Logger } from './logger';
import type { EgressProxy } from './network/egress-proxy';
import type { NetworkGuard } from './network/network-guard';
import type { SessionManager } from './sessions/manager';
import type { ScreenshotStore } from './store/screenshots';
import type { Store } from './store/store';

/** Everything a request handler may use; built once by `startRelay`. */
export interface Services {
  config: Config;
  logger: Logger;
  store: Store;
  sessions: SessionManager;
  browsers: BrowserHost;
  proxies: ProxyPool;
  /** The address policy of remote sessions (off when TANDEM_ALLOW_PRIVATE_NETWORK is true). */
  guard: NetworkGuard;
  /** The proxy every remote session's browser connects through; it applies `guard`. */
  egress: EgressProxy;
  /** Masks the configuration's secrets and URL credentials in text that leaves the relay. */
  redact(text: string): string;
  screenshots: ScreenshotStore;
  /** The planner every session uses (LLM when a model is configured, else the built-in one). */
  planner: Planner;
  /** Base URL clients reach the relay at (TANDEM_PUBLIC_URL, or the listening address). */
  publicUrl(): string;
  version: string;
  /** The extension gateway: local-mode devices, their presence and their session tabs. [local mode, issue 6] */
  gateway: ExtensionGateway;
}
