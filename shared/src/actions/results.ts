import { z } from 'zod';

/**
 * What came of an action. `ok`: it happened. `navigation`: it happened and the page is loading a new
 * document (snapshot again once it settles). `stale_element`: no element has that index any more
 * (take a new snapshot). `not_interactable`: the element exists but is hidden, covered or disabled.
 * `invalid_target`: the element cannot take this action (typing into a button, an unknown option).
 * `timeout`: a bounded wait ran out. `unsupported`: this executor does not run that action.
 * `error`: anything else; the message says what.
 */
export const ActionResultCode = z
  .enum(['ok', 'navigation', 'stale_element', 'not_interactable', 'invalid_target', 'timeout', 'unsupported', 'error'])
  .describe('Outcome of the action.');
export type ActionResultCode = z.infer<typeof ActionResultCode>;

/** The outcome of one action, as data: callers test `code`, the LLM reads `message`. */
export const ActionResult = z
  .object({
    code: ActionResultCode,
    message: z.string().describe('What happened, in one sentence a person (or the model) can act on.'),
    url: z.string().optional().describe('With code navigation: the URL being loaded, when known.'),
    value: z.string().optional().describe('For type and select_option: the value the field holds afterwards.'),
  })
  .meta({ id: 'ActionResult' });
export type ActionResult = z.infer<typeof ActionResult>;
