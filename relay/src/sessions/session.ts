import type { AgentMode } from '@tandem/shared';
import type { BrowserDriver, GoneReason } from '../browser/driver';
import { SecretDriver } from '../browser/secret-driver';
import type { Guardrails } from '../store/guardrails';
import type { OperationCancelled } from './cancellation';
import { SerialQueue } from './queue';

export type EndReason = 'closed' | 'expired' | GoneReason;

export interface SessionInfo {
  accountId: string;
  local: boolean;
  mode?: AgentMode | undefined;
  agentId?: string | undefined;
  useProxy: boolean;
  /** The account's guardrails when the session opened: they hold for its whole life. */
  guardrails?: Guardrails | undefined;
}

/**
 * A live session: its driver, its owner and its place in time. Manipulated only by SessionManager.
 * `C` is what the layer above keeps per session (the agent's conversation); the sessions layer only
 * holds it.
 */
export class Session<C = unknown> {
  readonly createdAt = Date.now();
  lastUsedAt = Date.now();
  idleTimer: NodeJS.Timeout | undefined;
  readonly queue: SerialQueue;
  /** Aborts the running operation (set while one runs). */
  operation: AbortController | undefined;
  /** The browser, through the layer that types secrets and masks them in everything read back. */
  readonly driver: SecretDriver;

  constructor(
    readonly id: string,
    readonly info: SessionInfo,
    driver: BrowserDriver,
    busyWaitMs: number,
    /** The agent's task, history and memory in this session. */
    readonly conversation: C,
  ) {
    this.driver = new SecretDriver(driver);
    this.queue = new SerialQueue(busyWaitMs);
  }

  get accountId(): string {
    return this.info.accountId;
  }

  /** Stops the running operation at its next action boundary, aborting its model request. */
  cancel(why: OperationCancelled): void {
    this.operation?.abort(why);
  }
}
