/**
 * What relays share when there are several of them (DESIGN §9): who holds which live session, which relay
 * holds each extension's socket, and a bus for commands that must reach every relay. With one relay
 * (no TANDEM_REDIS_URL) it is all here: `LocalCluster`.
 */

/** Another relay, as the cluster knows it. */
export interface ClusterNode {
  id: string;
  /** Where the other relays reach it (TANDEM_NODE_URL, or where it listens). */
  url: string;
}

/** A signed-in extension somewhere in the cluster. */
export interface RemoteDevice {
  deviceId: string;
  accountId: string;
  apiEnabled: boolean;
  node: ClusterNode;
}

/** Commands every relay hears. */
export type ClusterMessage =
  | { type: 'revoke-device'; deviceId: string }
  | { type: 'forget-account'; accountId: string }
  /** A parked session came back on `node`: the relay that parked it lets go of its clock. */
  | { type: 'session-taken'; sessionId: string; node: string };

export interface Cluster {
  /** This relay's node. */
  readonly self: ClusterNode;
  /** Whether other relays may exist (a Redis is configured). */
  readonly shared: boolean;
  /**
   * Makes this relay the holder of a live session, for `ttlMs` (the idle time). False when another relay
   * that is running holds it; a holder that stopped loses it.
   */
  claim(sessionId: string, ttlMs: number): Promise<boolean>;
  /** The session was used: it stays this relay's for another `ttlMs`. */
  touch(sessionId: string, ttlMs: number): Promise<void>;
  /** The session ended or parked: nobody holds it. */
  release(sessionId: string): Promise<void>;
  /** The running relay other than this one that holds the session, if any. */
  holderOf(sessionId: string): Promise<ClusterNode | undefined>;
  /** Whether a relay with this id is running. */
  alive(nodeId: string): Promise<boolean>;
  /** Forgets a relay found stopped (a refused connection), so others learn it at once. */
  stopped(nodeId: string): Promise<void>;
  /** Tells the cluster about an extension this relay holds the socket of (on every change, and as a heartbeat). */
  deviceHere(device: { deviceId: string; accountId: string; apiEnabled: boolean }): Promise<void>;
  deviceGone(deviceId: string): Promise<void>;
  /** The account's extensions connected to other running relays. */
  devicesElsewhere(accountId: string): Promise<RemoteDevice[]>;
  /** Sends a command to every relay, this one included. */
  broadcast(message: ClusterMessage): Promise<void>;
  onMessage(handler: (message: ClusterMessage) => void): void;
  close(): Promise<void>;
}

/** One relay on its own: it holds everything, and its broadcasts reach only itself. */
export class LocalCluster implements Cluster {
  readonly shared = false;
  private readonly handlers: ((message: ClusterMessage) => void)[] = [];

  constructor(readonly self: ClusterNode) {}

  async claim(): Promise<boolean> {
    return true;
  }
  async touch(): Promise<void> {}
  async release(): Promise<void> {}
  async holderOf(): Promise<ClusterNode | undefined> {
    return undefined;
  }
  async alive(nodeId: string): Promise<boolean> {
    return nodeId === this.self.id;
  }
  async stopped(): Promise<void> {}
  async deviceHere(): Promise<void> {}
  async deviceGone(): Promise<void> {}
  async devicesElsewhere(): Promise<RemoteDevice[]> {
    return [];
  }
  async broadcast(message: ClusterMessage): Promise<void> {
    for (const handler of this.handlers) handler(message);
  }
  onMessage(handler: (message: ClusterMessage) => void): void {
    this.handlers.push(handler);
  }
  async close(): Promise<void> {}
}
