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

/** Where the presence of this relay's extensions is also told (the cluster's shared presence). */
export interface PresenceMirror {
  deviceHere(device: { deviceId: string; accountId: string; apiEnabled: boolean }): Promise<void>;
  deviceGone(deviceId: string): Promise<void>;
}

/**
 * Presence here, told to the other relays too, so a local-mode request landing on one of them is passed
 * on to the relay that holds the extension's socket. A failed mirror write costs the extension nothing.
 */
export class MirroredPresence extends InProcessPresence {
  constructor(
    private readonly mirror: PresenceMirror,
    private readonly onError: (error: unknown) => void,
  ) {
    super();
  }

  override update(state: DevicePresence): void {
    super.update(state);
    const told = state.connected
      ? this.mirror.deviceHere({ deviceId: state.deviceId, accountId: state.accountId, apiEnabled: state.apiEnabled })
      : this.mirror.deviceGone(state.deviceId);
    void told.catch(this.onError);
  }

  override forget(deviceId: string): void {
    super.forget(deviceId);
    void this.mirror.deviceGone(deviceId).catch(this.onError);
  }
}
