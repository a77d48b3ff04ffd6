import {
  CLOSE_CODES,
  COMMANDS,
  type CommandName,
  EXTENSION_WS_PATH,
  PROTOCOL_VERSION,
  RelayMessage,
} from '@tandem/shared';
import { browser } from 'wxt/browser';
import {
  apiEnabled,
  type ConnectionInfo,
  connection,
  deviceId,
  deviceToken,
  relayUrl,
  sessionTabs,
} from '@/utils/storage';
import { COMMAND_HANDLERS } from './commands';
import { CommandFailure, toProtocolError } from './errors';
import { updateSessionTabs } from './session-tabs';

/** App-level ping; also keeps the MV3 service worker alive (Chrome 116+ counts socket traffic). */
export const PING_MS = 20_000;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/** chrome.alarms fires at most every 30 s: the safety net when a retry timer died with the worker. */
export const ALARM_NAME = 'tandem-reconnect';
const ALARM_PERIOD_MINUTES = 0.5;
/** Close codes after which retrying with the same settings cannot help. */
const FINAL_CODES = new Set<number>([CLOSE_CODES.badToken, CLOSE_CODES.versionMismatch, CLOSE_CODES.apiDisabled]);

/** `http(s)://host` → `ws(s)://host/v1/extension/ws`. The token never goes in the URL. */
export function socketUrl(base: string): string {
  const url = new URL(base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = EXTENSION_WS_PATH;
  url.search = '';
  return url.href;
}

/** What the popup says while connected with the toggle off. */
const API_OFF_DETAIL = 'API Enabled is off: turn it on to let the relay use this browser.';

/**
 * The one socket to the relay. Connects while signed in (API Enabled on or off: the relay sends no
 * command while it is off, and the popup can say the browser is connected), reconnects with
 * exponential backoff and jitter, runs allow-listed commands, tells the relay when the toggle
 * changes, and closes (idempotently) when the user signs out.
 */
export class RelayConnection {
  private ws: WebSocket | undefined;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  /** Settings the current socket was opened with; a change reconnects. */
  private openedWith = '';
  private syncing: Promise<void> = Promise.resolve();
  /** Settings the relay refused for good (bad token, old protocol): not retried until they change. */
  private refused = '';
  /** Whether that refusal was an older relay's answer to API Enabled off. */
  private refusedWhileOff = false;
  /** The API Enabled state the relay last heard (in hello or a state message). */
  private told: boolean | undefined;

  /** Brings the socket in line with the settings; safe to call any time, from any event. */
  sync(): Promise<void> {
    this.syncing = this.syncing.then(() => this.doSync()).catch(() => undefined);
    return this.syncing;
  }

  private async doSync(): Promise<void> {
    const [url, token, enabled] = await Promise.all([
      relayUrl.getValue(),
      deviceToken.getValue(),
      apiEnabled.getValue(),
    ]);
    if (!token) return this.close('signed_out', 'Sign in to connect.');
    const key = `${url}\u0000${token}`;
    // An older relay closes the socket for good when the API is off; the toggle going on retries.
    if (key === this.refused && !(enabled && this.refusedWhileOff)) return;
    if (this.ws && this.openedWith === key && this.ws.readyState <= WebSocket.OPEN) {
      if (this.ws.readyState === WebSocket.OPEN && this.told !== undefined && enabled !== this.told) {
        this.told = enabled;
        this.send({ type: 'state', apiEnabled: enabled });
        await this.setState(
          enabled ? { status: 'connected', detail: '' } : { status: 'api_off', detail: API_OFF_DETAIL },
        );
      }
      return;
    }
    if (this.ws) this.drop();
    if (this.retryTimer) return; // a retry is already scheduled
    this.open(url, token, key);
  }

  private open(url: string, token: string, key: string): void {
    let ws: WebSocket;
    try {
      ws = new WebSocket(socketUrl(url));
    } catch (error) {
      void this.setState({ status: 'error', detail: `Bad relay URL: ${String(error)}` });
      return;
    }
    this.ws = ws;
    this.openedWith = key;
    void this.setState({ status: 'connecting', detail: `Connecting to ${url}…` });
    ws.onopen = async () => {
      const held = (await sessionTabs.getValue()).map(({ sessionId, tabId }) => ({ sessionId, tabId }));
      const enabled = await apiEnabled.getValue();
      this.told = enabled;
      ws.send(
        JSON.stringify({
          v: PROTOCOL_VERSION,
          type: 'hello',
          protocolVersion: PROTOCOL_VERSION,
          extensionVersion: browser.runtime.getManifest().version,
          deviceId: (await deviceId.getValue()) ?? undefined,
          apiEnabled: enabled,
          token,
          sessions: held,
        }),
      );
    };
    ws.onmessage = (event) => void this.receive(ws, String(event.data));
    ws.onclose = (event) => {
      if (this.ws !== ws) return; // closed on purpose
      this.ws = undefined;
      this.stopPing();
      const reason = event.reason || (event.code === 1006 ? 'the relay is unreachable' : `closed (${event.code})`);
      this.told = undefined;
      if (FINAL_CODES.has(event.code)) {
        this.refused = this.openedWith;
        this.refusedWhileOff = event.code === CLOSE_CODES.apiDisabled;
        void this.setState({ status: 'error', detail: `The relay refused the connection: ${reason}.` });
        return;
      }
      void this.setState({ status: 'connecting', detail: `Disconnected (${reason}); reconnecting…` });
      this.scheduleRetry();
    };
  }

  private async receive(ws: WebSocket, text: string): Promise<void> {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    const parsed = RelayMessage.safeParse(data);
    if (!parsed.success) {
      // Answer a malformed request so the relay does not wait for its timeout.
      const id = (data as { id?: unknown } | null)?.id;
      if (typeof id === 'number') {
        const message = `Invalid request: ${parsed.error.issues[0]?.message ?? 'schema mismatch'}`;
        ws.send(
          JSON.stringify({
            v: PROTOCOL_VERSION,
            type: 'response',
            id,
            ok: false,
            error: { code: 'bad_request', message },
          }),
        );
      }
      return;
    }
    const message = parsed.data;
    if (message.type === 'pong') return;
    if (message.type === 'welcome') {
      this.attempt = 0;
      this.refused = '';
      await deviceId.setValue(message.deviceId);
      await this.setState({
        ...(this.told ? { status: 'connected', detail: '' } : { status: 'api_off', detail: API_OFF_DETAIL }),
        accountEmail: message.accountEmail,
      });
      this.startPing(ws, Math.min(PING_MS, message.heartbeatMs));
      await this.closeOrphans(message.sessions);
      // The toggle may have changed while the hello was on its way.
      void this.sync();
      return;
    }
    const handler = COMMAND_HANDLERS[message.type as CommandName] as (params: unknown) => Promise<unknown>;
    let reply: object;
    try {
      // The toggle wins over a command already on the wire when the user turned it off.
      if (!(await apiEnabled.getValue()))
        throw new CommandFailure('api_disabled', 'API Enabled is off in the extension.');
      const result = await handler(message.params);
      COMMANDS[message.type].result.parse(result); // what we answer is checked too
      reply = { ok: true, result };
    } catch (error) {
      reply = { ok: false, error: toProtocolError(error) };
    }
    if (ws.readyState === WebSocket.OPEN)
      ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type: 'response', id: message.id, ...reply }));
  }

  /** Tells the relay the user closed a session tab, or stopped its session from the popup. */
  tabClosed(sessionId: string, tabId: number, reason: 'closed' | 'stopped'): void {
    this.send({ type: 'tabClosed', sessionId, tabId, reason });
  }

  /** Tabs of sessions the relay no longer knows (it restarted): closed, since nothing will drive them. */
  private async closeOrphans(known: string[]): Promise<void> {
    const keep = new Set(known);
    const orphans = await updateSessionTabs((tabs) => ({
      next: tabs.filter((t) => keep.has(t.sessionId)),
      result: tabs.filter((t) => !keep.has(t.sessionId)),
    }));
    await Promise.all(orphans.map((t) => browser.tabs.remove(t.tabId).catch(() => undefined)));
  }

  /** Idempotent: stops the socket and any retry; says why in the popup. */
  private async close(status: ConnectionInfo['status'], detail: string): Promise<void> {
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.attempt = 0;
    const ws = this.ws;
    this.drop(1000, status);
    if (ws || (await connection.getValue()).status !== status)
      await this.setState({ status, detail, accountEmail: '' });
  }

  private drop(code = 1000, reason = 'reconnecting'): void {
    const ws = this.ws;
    this.ws = undefined;
    this.stopPing();
    if (ws && ws.readyState <= WebSocket.OPEN) ws.close(code, reason);
  }

  private scheduleRetry(): void {
    const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
    this.attempt++;
    const delay = ceiling / 2 + Math.random() * (ceiling / 2); // jitter: many browsers must not retry in step
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.sync();
    }, delay);
  }

  private startPing(ws: WebSocket, everyMs: number): void {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: PROTOCOL_VERSION, type: 'ping' }));
    }, everyMs);
  }

  private stopPing(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  private send(message: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...message }));
  }

  private async setState(next: Partial<ConnectionInfo>): Promise<void> {
    const current = await connection.getValue();
    await connection.setValue({ ...current, ...next });
  }

  static ensureAlarm(): void {
    void browser.alarms.create(ALARM_NAME, { periodInMinutes: ALARM_PERIOD_MINUTES });
  }
}
