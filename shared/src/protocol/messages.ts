import { z } from 'zod';
import { ActParams, ActResult, ContentParams, ContentResult, SnapshotParams, SnapshotResult } from './dom';
import { ProtocolError } from './errors';
import {
  HistoryResult,
  NavigateParams,
  ScreenshotParams,
  ScreenshotResult,
  TabOpenParams,
  TabParams,
  TabState,
} from './tabs';

/**
 * The relay ⇄ extension protocol version. Bump it when a message changes shape; the relay refuses a
 * hello with another version and tells the user which extension version to install.
 */
export const PROTOCOL_VERSION = 1;

/** The first extension version that speaks PROTOCOL_VERSION (named in the "update the extension" reason). */
export const MIN_EXTENSION_VERSION = '0.1.0';

/** The path of the gateway's WebSocket on the relay. */
export const EXTENSION_WS_PATH = '/v1/extension/ws';

/** WebSocket close codes the gateway uses, so the extension can tell the user why (4000-4999 are free). */
export const CLOSE_CODES = {
  badToken: 4001,
  versionMismatch: 4002,
  badMessage: 4003,
  helloTimeout: 4004,
  replaced: 4005,
  heartbeatLost: 4006,
  apiDisabled: 4010,
  relayShutdown: 1001,
} as const;

const v = z.literal(PROTOCOL_VERSION).describe('Protocol version of the sender.');

/**
 * The allow-list: every command the relay may send, with its params and result. High-level tab
 * operations only; never raw CDP and never a script to evaluate.
 */
export const COMMANDS = {
  'tab.open': { params: TabOpenParams, result: TabState },
  'tab.close': { params: TabParams, result: z.object({ closed: z.boolean().describe('false when it was gone') }) },
  'tab.info': { params: TabParams, result: TabState },
  navigate: { params: NavigateParams, result: TabState },
  back: { params: TabParams, result: HistoryResult },
  forward: { params: TabParams, result: HistoryResult },
  snapshot: { params: SnapshotParams, result: SnapshotResult },
  act: { params: ActParams, result: ActResult },
  content: { params: ContentParams, result: ContentResult },
  screenshot: { params: ScreenshotParams, result: ScreenshotResult },
} as const;
export type CommandName = keyof typeof COMMANDS;
export type CommandParams<C extends CommandName> = z.input<(typeof COMMANDS)[C]['params']>;
export type CommandResult<C extends CommandName> = z.infer<(typeof COMMANDS)[C]['result']>;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

const requestOf = <C extends CommandName>(command: C) =>
  z
    .object({
      v,
      id: z.int().min(1).describe('Correlates the answer with the request.'),
      type: z.literal(command),
      params: COMMANDS[command].params,
    })
    .describe(`Request: ${command}`);

/** A command from the relay. The extension validates it before it acts. */
export const CommandRequest = z.discriminatedUnion('type', [
  requestOf('tab.open'),
  requestOf('tab.close'),
  requestOf('tab.info'),
  requestOf('navigate'),
  requestOf('back'),
  requestOf('forward'),
  requestOf('snapshot'),
  requestOf('act'),
  requestOf('content'),
  requestOf('screenshot'),
]);
export type CommandRequest = z.infer<typeof CommandRequest>;

/** Relay → extension after a good hello. */
export const Welcome = z
  .object({
    v,
    type: z.literal('welcome'),
    heartbeatMs: z.int().positive().describe('Send a ping at least this often; the relay drops silent sockets.'),
    deviceId: z.string().describe('The device the token belongs to.'),
    accountEmail: z.string().describe('The account the device is signed in to, for the popup.'),
    sessions: z
      .array(z.string())
      .describe('Sessions the relay still holds for this device; the extension closes tabs of any others.'),
  })
  .describe('The relay accepted the hello.');
export type Welcome = z.infer<typeof Welcome>;

export const Pong = z.object({ v, type: z.literal('pong') }).describe('Answer to a ping.');

/** Everything the relay sends. */
export const RelayMessage = z.union([Welcome, Pong, CommandRequest]);
export type RelayMessage = z.infer<typeof RelayMessage>;

/** Extension → relay, first message on every socket. The token never travels in the URL. */
export const Hello = z
  .object({
    v: z.int().describe('Protocol version of the sender (checked against PROTOCOL_VERSION).'),
    type: z.literal('hello'),
    protocolVersion: z.int().describe('Same as v; kept explicit for the version check.'),
    extensionVersion: z.string().max(40).describe('The extension manifest version.'),
    deviceId: z.string().max(100).optional().describe('The device id from sign-in, when known.'),
    apiEnabled: z.boolean().describe('The API Enabled toggle (always true on a live socket).'),
    token: z.string().min(1).max(400).describe('The device token from POST /v1/extension/token.'),
    sessions: z
      .array(z.object({ sessionId: z.string(), tabId: z.int() }))
      .max(500)
      .default([])
      .describe('Session tabs the extension still holds (after a reconnect).'),
  })
  .describe('Opens the conversation.');
export type Hello = z.infer<typeof Hello>;

export const Ping = z.object({ v, type: z.literal('ping') }).describe('App-level heartbeat, at most every 20 s.');

export const StateEvent = z
  .object({ v, type: z.literal('state'), apiEnabled: z.boolean().describe('The API Enabled toggle.') })
  .describe('The extension state changed (sent before the socket closes when API Enabled goes off).');

export const TabClosedEvent = z
  .object({
    v,
    type: z.literal('tabClosed'),
    sessionId: z.string().describe('The session whose tab the user closed.'),
    tabId: z.int().describe('The tab that was closed.'),
    reason: z
      .enum(['closed', 'stopped'])
      .default('closed')
      .describe("closed: the user closed the tab; stopped: the user pressed Stop in the extension's popup."),
  })
  .describe('The user closed a session tab, or stopped its session: the relay ends the session.');

/** The extension's answer to a request. */
export const CommandResponse = z.discriminatedUnion('ok', [
  z.object({
    v,
    type: z.literal('response'),
    id: z.int().describe('The request id.'),
    ok: z.literal(true),
    result: z.unknown().describe("The command's result, validated by the relay against COMMANDS."),
  }),
  z.object({ v, type: z.literal('response'), id: z.int(), ok: z.literal(false), error: ProtocolError }),
]);
export type CommandResponse = z.infer<typeof CommandResponse>;

/** Everything the extension sends after hello. */
export const ExtensionMessage = z.union([Ping, StateEvent, TabClosedEvent, CommandResponse]);
export type ExtensionMessage = z.infer<typeof ExtensionMessage>;
