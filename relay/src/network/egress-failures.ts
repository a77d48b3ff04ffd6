/**
 * A connection of a session's browser that the egress proxy did not open. `private` and `unresolved`
 * are refusals by the address policy, `guardrail` by the account's guardrails; `unreachable` is the
 * network's answer (refused, timed out).
 */
export interface EgressFailure {
  /** The host as the browser asked for it: a name, an IPv4 address or a bracketed IPv6 address. */
  hostname: string;
  port: number;
  kind: 'private' | 'unresolved' | 'unreachable' | 'guardrail';
  reason: string;
  /** Monotonic sequence number: callers remember one and ask for what came after. */
  seq: number;
}

const KEEP = 64;

/**
 * The recent failures of one session's connections, newest last. The browser only sees a failed
 * tunnel or an empty response; the driver reads the reason here to tell the agent (or the client) why.
 */
export class EgressFailures {
  private readonly items: EgressFailure[] = [];
  private next = 1;

  record(failure: Omit<EgressFailure, 'seq'>): void {
    this.items.push({ ...failure, seq: this.next++ });
    if (this.items.length > KEEP) this.items.shift();
  }

  /** A mark to pass to `find`: only failures recorded after it count. */
  mark(): number {
    return this.next - 1;
  }

  /** The newest failure for this URL's host since `mark`, if any. */
  find(url: string, mark: number): EgressFailure | undefined {
    let hostname: string;
    try {
      hostname = new URL(url).hostname.toLowerCase();
    } catch {
      return undefined;
    }
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i] as EgressFailure;
      if (item.seq <= mark) break;
      if (item.hostname.toLowerCase() === hostname) return item;
    }
    return undefined;
  }
}
