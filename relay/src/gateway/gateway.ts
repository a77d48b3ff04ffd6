import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  CLOSE_CODES,
  type CommandName,
  type CommandParams,
  type CommandResult,
  EXTENSION_ID,
  EXTENSION_WS_PATH,
  ExtensionMessage,
  Hello,
  MIN_EXTENSION_VERSION,
  PROTOCOL_VERSION,
} from '@tandem/shared';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { BadRequest } from '../errors';
import type { Logger } from '../logger';
import type { Account } from '../store/accounts';
import type { DeviceRecord } from '../store/devices';
import type { Store } from '../store/store';
import { DeviceConnection } from './connection';
import { ExtensionCommandError, MESSAGES } from './errors';
import { InProcessPresence, type Presence } from './presence';
import { type SessionTab, SessionTabs } from './tabs';

/** The extension pings at least this often; it also keeps its MV3 service worker alive (≤ 20 s). */
export const HEARTBEAT_MS = 20_000;
/** A socket silent for this long is dropped. */
const SILENCE_LIMIT_MS = HEARTBEAT_MS * 2.5;
const HELLO_TIMEOUT_MS = 10_000;
/** How long a device's sessions outlive its socket; a reconnect within it continues them. */
export const GRACE_MS = 60_000;
/** A command sent while the device is reconnecting waits this long for it before failing (retriable). */
const RECONNECT_WAIT_MS = 5_000;
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface GatewayOptions {
  store: Store;
  logger: Logger;
  /** Accepted Origin headers; default chrome-extension://<EXTENSION_ID>. */
  origins?: readonly string[];
  presence?: Presence;
  heartbeatMs?: number;
  graceMs?: number;
  reconnectWaitMs?: number;
  /** How long a new socket may take to send its hello. */
  helloTimeoutMs?: number;
}

/** The origins from TANDEM_EXTENSION_ORIGINS (comma-separated), or the pinned extension's. */
export function extensionOrigins(setting: string | undefined): string[] {
  const list = (setting ?? '')
    .split(',')
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return list.length ? list : [`chrome-extension://${EXTENSION_ID}`];
}

interface DeviceState {
  connection?: DeviceConnection | undefined;
  graceTimer?: NodeJS.Timeout | undefined;
  /** Resolved when the device reconnects; commands sent meanwhile wait on it. */
  waiters: (() => void)[];
}

/**
 * The relay side of local mode (DESIGN §6): accepts the extension's socket on /v1/extension/ws, checks
 * Origin, token and protocol version, keeps presence per account, correlates commands with answers and
 * holds a disconnected device's sessions for a grace period. It never replays a command by itself.
 */
export class ExtensionGateway {
  readonly presence: Presence;
  readonly tabs = new SessionTabs();
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly devices = new Map<string, DeviceState>();
  private readonly origins: Set<string>;
  private readonly heartbeatMs: number;
  private readonly graceMs: number;
  private readonly reconnectWaitMs: number;
  private readonly helloTimeoutMs: number;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: GatewayOptions) {
    this.presence = options.presence ?? new InProcessPresence();
    this.origins = new Set(options.origins ?? extensionOrigins(undefined));
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.graceMs = options.graceMs ?? GRACE_MS;
    this.reconnectWaitMs = options.reconnectWaitMs ?? RECONNECT_WAIT_MS;
    this.helloTimeoutMs = options.helloTimeoutMs ?? HELLO_TIMEOUT_MS;
    this.sweeper = setInterval(() => this.dropSilent(), this.heartbeatMs).unref();
  }

  /** Serves the socket on the relay's HTTP server. */
  attach(server: Server): void {
    server.on('upgrade', (req, socket, head) => this.upgrade(req, socket, head));
  }

  /** The account's most recent connected, API-enabled device on this relay, if any. */
  readyDevice(accountId: string): string | undefined {
    return this.presence.forAccount(accountId).find((d) => d.connected && d.apiEnabled)?.deviceId;
  }

  /**
   * The device a new local session should use: the account's most recent connected, API-enabled one.
   * Throws 400 saying what is missing and what to do.
   */
  pickDevice(accountId: string): string {
    const devices = this.presence.forAccount(accountId);
    const ready = devices.find((d) => d.connected && d.apiEnabled);
    if (ready) return ready.deviceId;
    if (devices.some((d) => !d.apiEnabled)) {
      throw new BadRequest(
        'local: true needs the Tandem extension with API Enabled, and it is off. Open the extension popup in your browser and turn API Enabled on, then retry (or send local: false).',
      );
    }
    throw new BadRequest(
      'local: true needs the Tandem extension connected for this account, and none is. Install the extension, sign in from its popup with this relay URL, turn API Enabled on, then retry (or send local: false).',
    );
  }

  /** Sends a command to a device, waiting briefly for a reconnect if it is between sockets. */
  async request<C extends CommandName>(
    deviceId: string,
    command: C,
    params: CommandParams<C>,
    timeoutMs: number,
  ): Promise<CommandResult<C>> {
    const connection = await this.connectionOf(deviceId);
    return connection.request(command, params, timeoutMs);
  }

  /** Routes `tabClosed` and grace expiry for this session to its driver. */
  bindSession(tab: SessionTab): void {
    this.tabs.bind(tab);
  }

  unbindSession(sessionId: string): void {
    this.tabs.unbind(sessionId);
  }

  /**
   * Drops the device's socket without a close handshake, as a network failure would: its sessions are
   * held for the grace period and the extension reconnects by itself. For operators and tests.
   * Returns whether a socket was open.
   */
  dropConnection(deviceId: string): boolean {
    const live = this.devices.get(deviceId)?.connection;
    if (!live || live.closed) return false;
    live.ws.terminate();
    return true;
  }

  /** Commands sent to the device's live socket and not yet answered (observability and tests). */
  commandsInFlight(deviceId: string): CommandName[] {
    const live = this.devices.get(deviceId)?.connection;
    return live && !live.closed ? live.inFlightCommands : [];
  }

  /**
   * A revoked device token (sign-out, or revoked in the console): closes its socket with `badToken` so the
   * extension asks the user to sign in again, forgets its presence and ends its sessions at once.
   */
  revokeDevice(deviceId: string): void {
    const state = this.devices.get(deviceId);
    this.devices.delete(deviceId);
    this.presence.forget(deviceId);
    if (state) {
      clearTimeout(state.graceTimer);
      for (const wake of state.waiters.splice(0)) wake();
      const live = state.connection;
      if (live && !live.closed) {
        live.failAll();
        live.ws.close(CLOSE_CODES.badToken, 'the device token was revoked: sign in again');
      }
    }
    for (const tab of this.tabs.onDevice(deviceId)) this.tabs.end(tab.sessionId, 'device_revoked');
  }

  /** Closes every socket (relay shutdown). Sessions end with the session manager. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.sweeper);
    for (const [, state] of this.devices) {
      clearTimeout(state.graceTimer);
      state.connection?.failAll();
      state.connection?.ws.close(CLOSE_CODES.relayShutdown, 'relay shutting down');
    }
    for (const ws of this.wss.clients) ws.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private async connectionOf(deviceId: string): Promise<DeviceConnection> {
    if (this.closed) throw new ExtensionCommandError({ code: 'disconnected', message: MESSAGES.disconnected });
    const state = this.devices.get(deviceId);
    const live = state?.connection;
    if (live && !live.closed && !live.apiDisabled) return live;
    const presence = this.presenceOf(deviceId);
    if (presence && !presence.apiEnabled) {
      throw new ExtensionCommandError({ code: 'api_disabled', message: MESSAGES.apiDisabled });
    }
    if (state) {
      // Between sockets (worker restart, network blip): wait a little for the reconnect.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.reconnectWaitMs);
        state.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      const again = state.connection;
      if (again && !again.closed && !again.apiDisabled) return again;
      if (this.presenceOf(deviceId)?.apiEnabled === false) {
        throw new ExtensionCommandError({ code: 'api_disabled', message: MESSAGES.apiDisabled });
      }
    }
    throw new ExtensionCommandError({ code: 'disconnected', message: MESSAGES.disconnected });
  }

  private presenceOf(deviceId: string) {
    const state = this.devices.get(deviceId);
    const accountId = state?.connection?.accountId ?? this.tabs.onDevice(deviceId)[0]?.accountId;
    if (!accountId) return undefined;
    return this.presence.forAccount(accountId).find((d) => d.deviceId === deviceId);
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = new URL(req.url ?? '/', 'http://relay').pathname;
    if (path !== EXTENSION_WS_PATH || this.closed) {
      refuse(socket, 404, 'Not Found');
      return;
    }
    const origin = req.headers.origin ?? '';
    if (!this.origins.has(origin)) {
      this.options.logger.warn({ origin }, 'extension socket refused: origin not allowed');
      refuse(socket, 403, 'Forbidden');
      return;
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => this.handshake(ws));
  }

  /** The first message must be a valid hello with a live token and our protocol version. */
  private handshake(ws: WebSocket): void {
    const timer = setTimeout(() => ws.close(CLOSE_CODES.helloTimeout, 'no hello'), this.helloTimeoutMs);
    ws.once('message', async (data) => {
      clearTimeout(timer);
      const hello = Hello.safeParse(parseJson(data));
      if (!hello.success) {
        ws.close(CLOSE_CODES.badMessage, 'the first message must be a valid hello');
        return;
      }
      const { protocolVersion } = hello.data;
      if (protocolVersion !== PROTOCOL_VERSION) {
        const reason =
          protocolVersion < PROTOCOL_VERSION
            ? `update the extension to >= ${MIN_EXTENSION_VERSION} (protocol ${PROTOCOL_VERSION})`
            : `update the relay: it speaks protocol ${PROTOCOL_VERSION}, the extension ${protocolVersion}`;
        ws.close(CLOSE_CODES.versionMismatch, reason);
        return;
      }
      let device: DeviceRecord | undefined;
      let account: Account | undefined;
      try {
        device = await this.options.store.devices.resolve(hello.data.token);
        account = device && (await this.options.store.accounts.get(device.accountId));
      } catch (error) {
        // Not the token's fault: the extension retries (1011 is not one of its final codes).
        this.options.logger.error({ err: error }, 'could not check a device token');
        ws.close(1011, 'the relay could not check the device token: it retries by itself');
        return;
      }
      if (ws.readyState !== ws.OPEN) return; // gone while the store answered
      if (!device) {
        ws.close(CLOSE_CODES.badToken, 'invalid or revoked device token: sign in again');
        return;
      }
      // With API Enabled off the socket stays open (the popup shows the browser connected, and the
      // toggle going on needs no reconnect); no command goes to it until a state message says on.
      const connection = new DeviceConnection(
        ws,
        device.id,
        device.accountId,
        this.options.logger.child({ deviceId: device.id }),
      );
      connection.apiDisabled = !hello.data.apiEnabled;
      this.accept(ws, connection, {
        email: account?.email ?? '',
        held: hello.data.sessions,
      });
    });
    ws.on('error', () => undefined);
  }

  private accept(ws: WebSocket, connection: DeviceConnection, extra: { email: string; held: Hello['sessions'] }): void {
    const { deviceId, accountId } = connection;
    const state = this.devices.get(deviceId) ?? { waiters: [] };
    this.devices.set(deviceId, state);
    const previous = state.connection;
    if (previous && !previous.closed) {
      previous.failAll();
      previous.ws.close(CLOSE_CODES.replaced, 'replaced by a newer connection');
    }
    clearTimeout(state.graceTimer);
    state.graceTimer = undefined;
    state.connection = connection;
    this.setPresence(deviceId, accountId, true, !connection.apiDisabled);

    // Sessions the extension no longer holds a tab for ended while it was away.
    const held = new Set(extra.held.map((s) => s.sessionId));
    for (const tab of this.tabs.onDevice(deviceId)) {
      if (!held.has(tab.sessionId)) this.tabs.end(tab.sessionId, 'closed_in_browser');
    }
    const known = this.tabs.onDevice(deviceId).map((t) => t.sessionId);
    ws.send(
      JSON.stringify({
        v: PROTOCOL_VERSION,
        type: 'welcome',
        heartbeatMs: this.heartbeatMs,
        deviceId,
        accountEmail: extra.email,
        sessions: known,
      }),
    );
    this.options.logger.info({ deviceId, accountId, sessions: known.length }, 'extension connected');
    for (const wake of state.waiters.splice(0)) wake();

    ws.on('message', (data) => this.receive(connection, data));
    ws.on('close', (code) => this.disconnected(connection, code));
  }

  private receive(connection: DeviceConnection, data: RawData): void {
    connection.lastSeenAt = Date.now();
    const parsed = ExtensionMessage.safeParse(parseJson(data));
    if (!parsed.success) {
      this.options.logger.warn({ deviceId: connection.deviceId }, 'invalid message from extension');
      connection.ws.close(CLOSE_CODES.badMessage, 'invalid message');
      return;
    }
    const message = parsed.data;
    switch (message.type) {
      case 'ping':
        connection.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type: 'pong' }));
        return;
      case 'response':
        connection.settle(message);
        return;
      case 'state':
        connection.apiDisabled = !message.apiEnabled;
        this.setPresence(connection.deviceId, connection.accountId, true, message.apiEnabled);
        return;
      case 'tabClosed': {
        const tab = this.tabs.get(message.sessionId);
        if (tab && tab.deviceId === connection.deviceId && tab.tabId === message.tabId) {
          this.tabs.end(message.sessionId, message.reason === 'stopped' ? 'stopped_in_browser' : 'closed_in_browser');
        }
        return;
      }
    }
  }

  private disconnected(connection: DeviceConnection, code: number): void {
    if (code === CLOSE_CODES.apiDisabled) connection.apiDisabled = true;
    connection.failAll();
    const state = this.devices.get(connection.deviceId);
    if (!state || state.connection !== connection) return; // replaced by a newer socket
    state.connection = undefined;
    const apiEnabled = code !== CLOSE_CODES.apiDisabled && this.presenceOf(connection.deviceId)?.apiEnabled !== false;
    this.setPresence(connection.deviceId, connection.accountId, false, apiEnabled);
    this.options.logger.info({ deviceId: connection.deviceId, code }, 'extension disconnected');
    if (this.closed) return;
    state.graceTimer = setTimeout(() => {
      state.graceTimer = undefined;
      for (const tab of this.tabs.onDevice(connection.deviceId)) this.tabs.end(tab.sessionId, 'extension_disconnected');
    }, this.graceMs);
    state.graceTimer.unref();
  }

  private setPresence(deviceId: string, accountId: string, connected: boolean, apiEnabled: boolean): void {
    this.presence.update({ deviceId, accountId, connected, apiEnabled, since: Date.now() });
  }

  private dropSilent(): void {
    const now = Date.now();
    for (const [, state] of this.devices) {
      const c = state.connection;
      if (c && !c.closed && now - c.lastSeenAt > this.heartbeatMs * (SILENCE_LIMIT_MS / HEARTBEAT_MS)) {
        c.ws.close(CLOSE_CODES.heartbeatLost, 'no ping');
        // A peer that is really gone never answers the close handshake.
        setTimeout(() => c.ws.terminate(), this.heartbeatMs).unref();
      }
    }
  }
}

function parseJson(data: RawData): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}

function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
