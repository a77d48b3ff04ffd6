/** What the relay knows about one signed-in browser. */
export interface DevicePresence {
  deviceId: string;
  accountId: string;
  /** A socket is open right now. */
  connected: boolean;
  /** The API Enabled toggle as last reported (false once the user turned it off). */
  apiEnabled: boolean;
  /** When this state began (ms since epoch). */
  since: number;
}

/**
 * Presence per account: which devices are connected and API-enabled. One in-process implementation;
 * the seam for a Redis key with a heartbeat expiry when relays scale out (DESIGN §9).
 */
export interface Presence {
  update(state: DevicePresence): void;
  forget(deviceId: string): void;
  forAccount(accountId: string): DevicePresence[];
}

export class InProcessPresence implements Presence {
  private readonly devices = new Map<string, DevicePresence>();

  update(state: DevicePresence): void {
    this.devices.set(state.deviceId, { ...state });
  }

  forget(deviceId: string): void {
    this.devices.delete(deviceId);
  }

  forAccount(accountId: string): DevicePresence[] {
    return [...this.devices.values()].filter((d) => d.accountId === accountId).sort((a, b) => b.since - a.since);
  }
}
