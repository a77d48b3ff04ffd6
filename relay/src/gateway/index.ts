export { DeviceConnection } from './connection';
export { ExtensionCommandError } from './errors';
export { ExtensionGateway, extensionOrigins, type GatewayOptions, GRACE_MS, HEARTBEAT_MS } from './gateway';
export { type DevicePresence, InProcessPresence, type Presence } from './presence';
export { type SessionTab, SessionTabs } from './tabs';
