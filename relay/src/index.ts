export { BrowserHost } from './browser/browser-host';
export { ChromiumNotFound, chromiumArgs, findChromium } from './browser/chromium';
export { type Config, ConfigError, type Env, loadConfig, loadDotEnv } from './config';
export { createLogger, type Logger } from './logger';
export { type Relay, startRelay } from './server';
