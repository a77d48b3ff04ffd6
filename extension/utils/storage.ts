import { storage } from '#imports';
import type { ConnectionInfo, SessionTabInfo } from '../lib/state';

export type { ConnectionInfo, SessionTabInfo };

/** Where the relay listens; the popup shows and edits it, the background socket connects to it. */
export const relayUrl = storage.defineItem<string>('local:relayUrl', { fallback: 'http://127.0.0.1:8787' });

/** The revocable device token the relay issues at sign-in; null while signed out. */
export const deviceToken = storage.defineItem<string | null>('local:deviceToken', { fallback: null });

/** The device id the relay gave with the token (shown in the popup, sent in hello). */
export const deviceId = storage.defineItem<string | null>('local:deviceId', { fallback: null });

/** Whether the user lets the relay drive this browser (the popup's API Enabled toggle). Off by default. */
export const apiEnabled = storage.defineItem<boolean>('local:apiEnabled', { fallback: false });

const SIGNED_OUT: ConnectionInfo = { status: 'signed_out', detail: '', accountEmail: '' };

/** The relay socket's state as the popup shows it; written by the background worker only. */
export const connection = storage.defineItem<ConnectionInfo>('session:connection', { fallback: SIGNED_OUT });

export const sessionTabs = storage.defineItem<SessionTabInfo[]>('session:sessionTabs', { fallback: [] });

/**
 * Whether the user allows trusted input (the popup's Trusted input switch): the background then sends
 * clicks and keys through the debugger of the session's tab for the step. Off by default.
 */
export const trustedInput = storage.defineItem<boolean>('local:trustedInput', { fallback: false });
