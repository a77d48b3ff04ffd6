import type { KeyModifier } from '@tandem/shared';
import { browser } from 'wxt/browser';
import { trustedInput } from '@/utils/storage';
import { type KeyDefinition, keyDefinition, MODIFIER_BITS } from './keys';

/**
 * Trusted input (DESIGN §6 "Input"): when the user switched it on in the popup, clicks and keys go
 * through the debugger of the session's tab (`Input.dispatch*`), so pages that check `isTrusted` or need
 * user activation work. Only these fixed input events are sent; the relay never gets a DevTools channel.
 */

/** Detach after this long without input, so Chrome's "started debugging" bar does not stay. */
export const DEBUGGER_IDLE_MS = 5_000;
const CDP_VERSION = '1.3';

/** Tabs the debugger is attached to, with the timer that detaches when idle. */
const attached = new Map<number, ReturnType<typeof setTimeout> | undefined>();

/** Whether actions should use trusted input: the user's switch, and a browser with the debugger API. */
export async function trustedInputOn(): Promise<boolean> {
  return (await trustedInput.getValue()) && browser.debugger !== undefined;
}

/** Tabs the debugger is attached to right now (for the popup and the tests). */
export function attachedTabs(): number[] {
  return [...attached.keys()];
}

/** Forgets tabs the browser detached by itself (tab closed, user cancelled the bar, DevTools took over). */
export function watchDebugger(): void {
  browser.debugger?.onDetach.addListener((source) => {
    if (source.tabId === undefined) return;
    clearTimeout(attached.get(source.tabId));
    attached.delete(source.tabId);
  });
}

/** Detaches from every tab (the user switched trusted input off). */
export async function detachAll(): Promise<void> {
  await Promise.all(attachedTabs().map((tabId) => detach(tabId)));
}

async function detach(tabId: number): Promise<void> {
  clearTimeout(attached.get(tabId));
  attached.delete(tabId);
  await browser.debugger.detach({ tabId }).catch(() => undefined);
}

type Send = (method: string, params: Record<string, unknown>) => Promise<unknown>;

/**
 * Runs `use` with the debugger attached to the tab, then arms the idle detach. Resolves undefined when
 * the debugger cannot attach (DevTools already open on the tab): the caller falls back to the runtime.
 */
async function withDebugger<T>(tabId: number, use: (send: Send) => Promise<T>): Promise<T | undefined> {
  clearTimeout(attached.get(tabId));
  if (!attached.has(tabId)) {
    const ok = await browser.debugger.attach({ tabId }, CDP_VERSION).then(
      () => true,
      () => false,
    );
    if (!ok) return undefined;
  }
  attached.set(tabId, undefined);
  try {
    return await use((method, params) => browser.debugger.sendCommand({ tabId }, method, params));
  } finally {
    if (attached.has(tabId))
      attached.set(
        tabId,
        setTimeout(() => void detach(tabId), DEBUGGER_IDLE_MS),
      );
  }
}

/** A trusted left click (or double click) at a point in top-viewport CSS pixels. */
export function clickAt(tabId: number, point: { x: number; y: number }, double: boolean): Promise<true | undefined> {
  return withDebugger(tabId, async (send) => {
    const at = { x: point.x, y: point.y };
    await send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...at });
    for (let clickCount = 1; clickCount <= (double ? 2 : 1); clickCount++) {
      await send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at, button: 'left', buttons: 1, clickCount });
      await send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at, button: 'left', buttons: 0, clickCount });
    }
    return true as const;
  });
}

async function press(send: Send, def: KeyDefinition, modifiers: number): Promise<void> {
  // A shortcut (Control+a) must not type its letter; Shift alone still types.
  const text = modifiers & ~MODIFIER_BITS.Shift ? undefined : def.text;
  const common = { key: def.key, code: def.code, windowsVirtualKeyCode: def.keyCode, modifiers };
  await send('Input.dispatchKeyEvent', {
    type: text ? 'keyDown' : 'rawKeyDown',
    ...common,
    ...(text ? { text, unmodifiedText: text } : {}),
  });
  await send('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
}

/** Trusted keystrokes into the focused field: optionally select-all + delete first, Enter after. */
export function typeText(
  tabId: number,
  text: string,
  options: { clear: boolean; submit: boolean },
): Promise<true | undefined> {
  return withDebugger(tabId, async (send) => {
    if (options.clear) {
      const selectAll = navigator.userAgent.includes('Mac') ? MODIFIER_BITS.Meta : MODIFIER_BITS.Control;
      await press(send, keyDefinition('a'), selectAll);
      await press(send, keyDefinition('Backspace'), 0);
    }
    for (const char of text) await press(send, keyDefinition(char), 0);
    if (options.submit) await press(send, keyDefinition('Enter'), 0);
    return true as const;
  });
}

/** One trusted key press with modifiers, on the focused element. */
export function pressKey(tabId: number, key: string, modifiers: KeyModifier[]): Promise<true | undefined> {
  const bits = modifiers.reduce((sum, m) => sum | MODIFIER_BITS[m], 0);
  return withDebugger(tabId, async (send) => {
    await press(send, keyDefinition(key), bits);
    return true as const;
  });
}
