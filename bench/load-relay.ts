/**
 * The relay of the load benchmark, in its own process (so its memory is its own), configured from the
 * environment as `npm start` is. Over the IPC channel it reports what only it can count: live sessions,
 * its Chromium's contexts and pages, and its own active handles by type.
 */
import { loadConfig, startRelay } from '@tandem/relay';
import { pino } from 'pino';

export interface RelayStats {
  sessions: number;
  /** Sessions whose browser context is closed until their next use. */
  parked: number;
  /** Whether a Chromium was ever started (contexts and pages are 0 before). */
  browserStarted: boolean;
  chromiumPid: number | undefined;
  contexts: number;
  pages: number;
  /** process.getActiveResourcesInfo(), counted by type (TCPSocketWrap, Timeout, FSReqCallback…). */
  handles: Record<string, number>;
}

export type RelayRequest = { type: 'stats'; id: number } | { type: 'close' };
export type RelayReply = { type: 'ready'; url: string } | { type: 'stats'; id: number; stats: RelayStats };

const relay = await startRelay(loadConfig(process.env), { logger: pino({ level: 'silent' }) });
const send = (reply: RelayReply) => process.send?.(reply);

async function stats(): Promise<RelayStats> {
  const { browsers, sessions } = relay.services;
  const browser = browsers.starts > 0 ? await browsers.get() : undefined;
  const contexts = browser?.contexts() ?? [];
  const handles: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) handles[type] = (handles[type] ?? 0) + 1;
  return {
    sessions: sessions.size,
    parked: sessions.parkedCount,
    browserStarted: browser !== undefined,
    chromiumPid: await browsers.pid(),
    contexts: contexts.length,
    pages: contexts.reduce((sum, context) => sum + context.pages().length, 0),
    handles,
  };
}

process.on('message', (message: RelayRequest) => {
  if (message.type === 'stats') void stats().then((s) => send({ type: 'stats', id: message.id, stats: s }));
  if (message.type === 'close') void relay.close().then(() => process.exit(0));
});
send({ type: 'ready', url: relay.url });
