import type { GoneReason } from '../browser/driver';

/** A session's tab in a device's browser, as the gateway routes events to it. */
export interface SessionTab {
  sessionId: string;
  accountId: string;
  deviceId: string;
  tabId: number;
  /** Called once when the tab is gone for good (closed by the user, or the device did not come back). */
  gone(reason: GoneReason): void;
}

/** Session tabs by session id: where `tabClosed` events and grace-period expiries go. */
export class SessionTabs {
  private readonly tabs = new Map<string, SessionTab>();

  bind(tab: SessionTab): void {
    this.tabs.set(tab.sessionId, tab);
  }

  unbind(sessionId: string): void {
    this.tabs.delete(sessionId);
  }

  get(sessionId: string): SessionTab | undefined {
    return this.tabs.get(sessionId);
  }

  onDevice(deviceId: string): SessionTab[] {
    return [...this.tabs.values()].filter((t) => t.deviceId === deviceId);
  }

  /** Ends a session whose tab is gone; the binding is removed first so it fires once. */
  end(sessionId: string, reason: GoneReason): void {
    const tab = this.tabs.get(sessionId);
    if (!tab) return;
    this.tabs.delete(sessionId);
    tab.gone(reason);
  }
}
