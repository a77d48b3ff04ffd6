import { Conversation, type ConversationState } from '../agent/conversation';
import type { PageState } from '../browser/playwright-driver';
import type { Cluster } from '../cluster/cluster';
import type { Logger } from '../logger';
import type { Clock } from '../sessions/clock';
import type { ParkedRemote } from '../sessions/lifecycle';
import type { ParkedSessions } from '../sessions/manager';
import type { Session, SessionInfo } from '../sessions/session';
import type { SessionRecord } from '../store/session-records';

/** The parked state as the store keeps it (JSON): enough for any relay on the store to bring it back. */
interface Kept {
  v: 1;
  info: Omit<SessionInfo, 'accountId' | 'local'>;
  page: PageState;
  conversation: ConversationState;
}

export interface ParkedStoreDeps {
  records: {
    park(id: string, state: string, lastUsedAt: number, url: string): Promise<void>;
    parked(accountId: string, id: string): Promise<{ record: SessionRecord; state: string } | undefined>;
    unpark(id: string, nodeId: string): Promise<void>;
    expireParked(id: string, lastUsedAt: number): Promise<boolean>;
  };
  /** This relay's TANDEM_NODE_ID: a session brought back is this node's from then on. */
  nodeId: string;
  /** The session directory: a parked session is held by no relay; a revived one by this one. */
  directory: Pick<Cluster, 'release' | 'claim' | 'broadcast'>;
  /** TANDEM_SESSION_IDLE_SECONDS: a parked session idle longer has expired, swept or not. */
  idleMs: number;
  /** The session manager's clock. */
  clock: Pick<Clock, 'now'>;
  logger: Logger;
}

/**
 * Parked sessions in the store: the session manager puts them there as they park and takes them out as
 * they revive; the opener loads one that is in no relay's memory (another relay parked it, or this one
 * restarted since).
 */
export class ParkedSessionStore implements ParkedSessions<Conversation> {
  constructor(private readonly deps: ParkedStoreDeps) {}

  async save(session: Session<Conversation>, page: PageState): Promise<void> {
    const { accountId: _account, local: _local, ...info } = session.info;
    const kept: Kept = { v: 1, info, page, conversation: session.conversation.state() };
    await this.deps.records.park(session.id, JSON.stringify(kept), session.lastUsedAt, page.url);
    await this.deps.directory.release(session.id);
  }

  async revived(session: Session<Conversation>): Promise<void> {
    await this.deps.directory.claim(session.id, this.deps.idleMs);
    await this.deps.records.unpark(session.id, this.deps.nodeId);
    // The relay that parked it (maybe another) still keeps its clock: it lets go.
    await this.deps.directory.broadcast({ type: 'session-taken', sessionId: session.id, node: this.deps.nodeId });
  }

  expire(sessionId: string, lastUsedAt: number): Promise<boolean> {
    return this.deps.records.expireParked(sessionId, lastUsedAt);
  }

  /**
   * The account's parked session `id` as the store has it, or undefined when it has none (or only one
   * that has expired, which is then ended, or whose kept state cannot be read).
   */
  async load(accountId: string, id: string): Promise<ParkedRemote<Conversation> | undefined> {
    const now = this.deps.clock.now();
    const found = await this.deps.records.parked(accountId, id);
    if (!found) return undefined;
    const { record } = found;
    if (now - record.lastUsedAt >= this.deps.idleMs) {
      await this.deps.records.expireParked(id, record.lastUsedAt);
      return undefined;
    }
    let kept: Kept;
    try {
      kept = JSON.parse(found.state) as Kept;
      if (kept.v !== 1) throw new Error(`kept in format ${String(kept.v)}, which this relay does not read`);
    } catch (error) {
      this.deps.logger.warn({ err: error, sessionId: id }, 'a parked session could not be read back');
      return undefined;
    }
    return {
      id,
      info: { ...kept.info, accountId, local: false },
      page: kept.page,
      conversation: Conversation.from(kept.conversation),
      createdAt: record.createdAt,
      lastUsedAt: record.lastUsedAt,
    };
  }
}
