import { z } from 'zod';

/**
 * Why a command failed, as data (STYLE §9): the relay rebuilds a matching error from the code and
 * callers test the code, never the message. `restricted_page`: the browser forbids extensions there
 * (chrome://, the web store, other extensions). `tab_closed`: the session's tab is gone. `api_disabled`:
 * the user turned API Enabled off. `timeout`: a bounded wait ran out. `stale_element`: the element
 * index is unknown. `navigation_failed`: the page could not be loaded. `disconnected`: the socket dropped
 * while the command was in flight (retriable; nothing is replayed). `bad_request`: the message failed
 * validation. `internal`: anything else.
 */
export const ProtocolErrorCode = z
  .enum([
    'restricted_page',
    'tab_closed',
    'api_disabled',
    'timeout',
    'stale_element',
    'navigation_failed',
    'disconnected',
    'bad_request',
    'internal',
  ])
  .describe('Named failure code; the message says what to do.');
export type ProtocolErrorCode = z.infer<typeof ProtocolErrorCode>;

export const ProtocolError = z
  .object({
    code: ProtocolErrorCode,
    message: z.string().describe('What went wrong, in a sentence a person can act on.'),
  })
  .describe('A failed command, as data.');
export type ProtocolError = z.infer<typeof ProtocolError>;

/** Codes after which repeating the same command may succeed. */
export const RETRIABLE_CODES: readonly ProtocolErrorCode[] = ['disconnected', 'timeout'];
