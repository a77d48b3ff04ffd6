import {
  COMMANDS,
  type CommandName,
  type CommandParams,
  type CommandResult,
  type ExtensionMessage,
  PROTOCOL_VERSION,
} from '@tandem/shared';
import type { WebSocket } from 'ws';
import type { Logger } from '../logger';
import { ExtensionCommandError, MESSAGES } from './errors';

interface Pending {
  command: CommandName;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** One live, authenticated socket to an extension: correlates requests with answers. */
export class DeviceConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  lastSeenAt = Date.now();
  closed = false;
  /** The extension said API Enabled went off; its socket is about to close. */
  apiDisabled = false;

  constructor(
    readonly ws: WebSocket,
    readonly deviceId: string,
    readonly accountId: string,
    private readonly logger: Logger,
  ) {}

  /** Sends one allow-listed command and resolves with its validated result; rejects with ExtensionCommandError. */
  request<C extends CommandName>(command: C, params: CommandParams<C>, timeoutMs: number): Promise<CommandResult<C>> {
    if (this.closed)
      return Promise.reject(new ExtensionCommandError({ code: 'disconnected', message: MESSAGES.disconnected }));
    // Validate what we send too: a bad request is our bug and should fail here, not in the browser.
    const checked = COMMANDS[command].params.parse(params);
    const id = this.nextId++;
    return new Promise<CommandResult<C>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ExtensionCommandError({ code: 'timeout', message: MESSAGES.timeout(command, timeoutMs) }));
      }, timeoutMs);
      this.pending.set(id, { command, resolve: resolve as (r: unknown) => void, reject, timer });
      this.ws.send(JSON.stringify({ v: PROTOCOL_VERSION, id, type: command, params: checked }));
    });
  }

  /** Handles an answer; other messages are the gateway's. */
  settle(message: Extract<ExtensionMessage, { type: 'response' }>): void {
    const pending = this.pending.get(message.id);
    if (!pending) return; // answered after its timeout: dropped
    this.pending.delete(message.id);
    clearTimeout(pending.timer);
    if (!message.ok) {
      pending.reject(new ExtensionCommandError(message.error));
      return;
    }
    const parsed = COMMANDS[pending.command].result.safeParse(message.result);
    if (parsed.success) pending.resolve(parsed.data);
    else {
      this.logger.warn(
        { command: pending.command, issues: parsed.error.issues.slice(0, 3) },
        'bad result from extension',
      );
      pending.reject(
        new ExtensionCommandError({
          code: 'internal',
          message: `The extension sent a malformed ${pending.command} result.`,
        }),
      );
    }
  }

  /**
   * Fails every in-flight command: with the retriable `disconnected`, or `api_disabled` when the user
   * turned the API off. Nothing is replayed.
   */
  failAll(): void {
    this.closed = true;
    const error = this.apiDisabled
      ? { code: 'api_disabled' as const, message: MESSAGES.apiDisabled }
      : { code: 'disconnected' as const, message: MESSAGES.disconnected };
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new ExtensionCommandError(error));
      this.pending.delete(id);
    }
  }

  /** The commands sent and not yet answered, oldest first. */
  get inFlightCommands(): CommandName[] {
    return [...this.pending.values()].map((p) => p.command);
  }
}
