import { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { Cluster, ClusterMessage, ClusterNode, RemoteDevice } from './cluster';

/** A running relay refreshes its key this often; one silent for NODE_TTL_MS counts as stopped. */
const HEARTBEAT_MS = 5_000;
const NODE_TTL_MS = 15_000;
/** An extension's presence lives as long as its relay's heartbeat keeps it. */
const DEVICE_TTL_MS = 15_000;

const NODE = 'tandem:node:';
const SESSION = 'tandem:ses:';
const DEVICE = 'tandem:dev:';
const ACCOUNT_DEVICES = 'tandem:acct-devs:';
const BUS = 'tandem:bus';

/**
 * Takes a session for a relay when nobody holds it, this relay does, or its holder stopped (its key is
 * gone): KEYS[1] the session, ARGV the relay, the time to live, and the node key prefix.
 */
const CLAIM = `
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] or redis.call('EXISTS', ARGV[3] .. holder) == 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

/** Lets go of a session only if this relay holds it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface DeviceEntry {
  accountId: string;
  apiEnabled: boolean;
  node: string;
}

/** Thrown at start when another running relay already has this relay's TANDEM_NODE_ID. */
export class NodeIdTaken extends Error {
  constructor(nodeId: string, url: string) {
    super(
      `TANDEM_NODE_ID=${nodeId} is already used by a running relay (${url}) on this Redis. Give every relay its own TANDEM_NODE_ID (session ids carry it), then start again.`,
    );
    this.name = 'NodeIdTaken';
  }
}

/**
 * The cluster on Redis (TANDEM_REDIS_URL): node heartbeats, the session directory, extension presence and
 * a pub/sub bus. Keys expire by themselves, so a relay that dies leaves nothing that outlives its timeouts.
 */
export class RedisCluster implements Cluster {
  readonly shared = true;
  private readonly handlers: ((message: ClusterMessage) => void)[] = [];
  private readonly devices = new Map<string, { accountId: string; apiEnabled: boolean }>();
  private heartbeat: NodeJS.Timeout | undefined;
  /** Set once the node key is ours: a relay refused for a taken id must not delete the other's key. */
  private registered = false;
  private closing: Promise<void> | undefined;

  private constructor(
    /** The connection, shared with the limits that count across relays (rate limits, sign-in failures). */
    readonly redis: Redis,
    private readonly subscriber: Redis,
    readonly self: ClusterNode,
    private readonly logger: Logger,
  ) {}

  /**
   * Connects, takes this relay's node id (NodeIdTaken when a running relay has it) and starts its
   * heartbeat and the bus. `self.url` is where the other relays reach this one.
   */
  static async join(redisUrl: string, self: ClusterNode, logger: Logger): Promise<RedisCluster> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: true };
    const redis = new Redis(redisUrl, options);
    const subscriber = new Redis(redisUrl, options);
    // Errors are logged once per connection state change by ioredis' reconnects; unheard they would crash.
    redis.on('error', (error) => logger.warn({ err: error }, 'redis connection failed'));
    subscriber.on('error', (error) => logger.warn({ err: error }, 'redis (bus) connection failed'));
    try {
      await Promise.all([redis.connect(), subscriber.connect()]);
    } catch (error) {
      redis.disconnect();
      subscriber.disconnect();
      throw new Error(
        `Cannot connect to Redis at TANDEM_REDIS_URL: ${(error as Error).message}. Is it running and reachable?`,
      );
    }
    const cluster = new RedisCluster(redis, subscriber, self, logger);
    try {
      await cluster.register();
      await cluster.listen();
    } catch (error) {
      await cluster.close();
      throw error;
    }
    return cluster;
  }

  private async register(): Promise<void> {
    const key = NODE + this.self.id;
    const taken = await this.redis.set(key, this.self.url, 'PX', NODE_TTL_MS, 'NX');
    if (taken !== 'OK') {
      const holder = (await this.redis.get(key)) ?? 'unknown';
      if (holder !== this.self.url) throw new NodeIdTaken(this.self.id, holder);
      // Our own key from a start a moment ago (a quick restart at the same address): ours again.
      await this.redis.set(key, this.self.url, 'PX', NODE_TTL_MS);
    }
    this.registered = true;
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private async beat(): Promise<void> {
    try {
      const pipeline = this.redis.pipeline().set(NODE + this.self.id, this.self.url, 'PX', NODE_TTL_MS);
      for (const [deviceId, device] of this.devices) {
        pipeline.set(DEVICE + deviceId, JSON.stringify({ ...device, node: this.self.id }), 'PX', DEVICE_TTL_MS);
      }
      await pipeline.exec();
    } catch (error) {
      this.logger.warn({ err: error }, 'cluster heartbeat not sent');
    }
  }

  private async listen(): Promise<void> {
    this.subscriber.on('message', (_channel: string, text: string) => {
      let message: ClusterMessage;
      try {
        message = JSON.parse(text) as ClusterMessage;
      } catch {
        return;
      }
      for (const handler of this.handlers) handler(message);
    });
    await this.subscriber.subscribe(BUS);
  }

  async claim(sessionId: string, ttlMs: number): Promise<boolean> {
    const claimed = await this.redis.eval(CLAIM, 1, SESSION + sessionId, this.self.id, Math.ceil(ttlMs), NODE);
    return claimed === 1;
  }

  async touch(sessionId: string, ttlMs: number): Promise<void> {
    await this.claim(sessionId, ttlMs);
  }

  async release(sessionId: string): Promise<void> {
    await this.redis.eval(RELEASE, 1, SESSION + sessionId, this.self.id);
  }

  async holderOf(sessionId: string): Promise<ClusterNode | undefined> {
    const holder = await this.redis.get(SESSION + sessionId);
    if (!holder || holder === this.self.id) return undefined;
    const url = await this.redis.get(NODE + holder);
    return url ? { id: holder, url } : undefined;
  }

  async alive(nodeId: string): Promise<boolean> {
    return nodeId === this.self.id || (await this.redis.exists(NODE + nodeId)) === 1;
  }

  async stopped(nodeId: string): Promise<void> {
    if (nodeId !== this.self.id) await this.redis.del(NODE + nodeId);
  }

  async deviceHere(device: { deviceId: string; accountId: string; apiEnabled: boolean }): Promise<void> {
    const entry = { accountId: device.accountId, apiEnabled: device.apiEnabled };
    this.devices.set(device.deviceId, entry);
    await this.redis
      .pipeline()
      .set(DEVICE + device.deviceId, JSON.stringify({ ...entry, node: this.self.id }), 'PX', DEVICE_TTL_MS)
      .sadd(ACCOUNT_DEVICES + device.accountId, device.deviceId)
      .exec();
  }

  async deviceGone(deviceId: string): Promise<void> {
    const known = this.devices.get(deviceId);
    this.devices.delete(deviceId);
    // Only this relay's entry: the extension may already be connected to another one.
    const entry = await this.redis.get(DEVICE + deviceId);
    if (entry && (JSON.parse(entry) as DeviceEntry).node === this.self.id) await this.redis.del(DEVICE + deviceId);
    if (known) this.logger.debug({ deviceId }, 'extension presence removed from the cluster');
  }

  async devicesElsewhere(accountId: string): Promise<RemoteDevice[]> {
    const ids = await this.redis.smembers(ACCOUNT_DEVICES + accountId);
    if (ids.length === 0) return [];
    const entries = await this.redis.mget(ids.map((id) => DEVICE + id));
    const found: RemoteDevice[] = [];
    const stale: string[] = [];
    for (const [i, text] of entries.entries()) {
      const deviceId = ids[i] as string;
      if (!text) {
        stale.push(deviceId);
        continue;
      }
      const entry = JSON.parse(text) as DeviceEntry;
      if (entry.node === this.self.id || entry.accountId !== accountId) continue;
      const url = await this.redis.get(NODE + entry.node);
      if (url) found.push({ deviceId, accountId, apiEnabled: entry.apiEnabled, node: { id: entry.node, url } });
    }
    if (stale.length) await this.redis.srem(ACCOUNT_DEVICES + accountId, ...stale);
    return found;
  }

  async broadcast(message: ClusterMessage): Promise<void> {
    await this.redis.publish(BUS, JSON.stringify(message));
  }

  onMessage(handler: (message: ClusterMessage) => void): void {
    this.handlers.push(handler);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      clearInterval(this.heartbeat);
      // Leaving on purpose: the others learn it at once, not after the key's time to live.
      if (this.registered) await this.redis.del(NODE + this.self.id).catch(() => undefined);
      const gone = [...this.devices.keys()];
      for (const deviceId of gone) await this.deviceGone(deviceId).catch(() => undefined);
      this.redis.disconnect();
      this.subscriber.disconnect();
    })();
    return this.closing;
  }
}
