import { z } from 'zod';
import { MAX_CMD_CHARS } from './limits';
import { CallSecrets } from './secrets';

/** Session status values returned by browse, step, create and the final stream chunk. */
export const SessionStatus = z
  .enum(['CONTINUE', 'ASK_USER', 'DONE'])
  .describe(
    'CONTINUE: the agent has more steps to do. ASK_USER: the agent needs more information, supplied in the cmd of the next call. DONE: the action is complete.',
  )
  .meta({ id: 'SessionStatus' });
export type SessionStatus = z.infer<typeof SessionStatus>;

/** Speed mode: picks the underlying language model. */
export const AgentMode = z
  .enum(['fast', 'standard'])
  .describe('fast: simpler or speed-critical tasks. standard: complex tasks with multi-step reasoning.')
  .meta({ id: 'AgentMode' });
export type AgentMode = z.infer<typeof AgentMode>;

/** Largest viewport side accepted: past it Chromium cannot allocate the surface and screenshots run out of memory. */
const MAX_VIEWPORT = 8192;

export const BrowserParams = z
  .object({
    height: z
      .number()
      .positive()
      .max(MAX_VIEWPORT)
      .optional()
      .describe('Viewport height in CSS pixels (default 800, at most 8192).'),
    width: z
      .number()
      .positive()
      .max(MAX_VIEWPORT)
      .optional()
      .describe('Viewport width in CSS pixels (default 1280, at most 8192).'),
  })
  .describe('Size of the browser screen.')
  .meta({ id: 'BrowserParams' });
export type BrowserParams = z.infer<typeof BrowserParams>;

export const OptionalParams = z
  .looseObject({ secrets: CallSecrets.optional() })
  .describe('Additional parameters; unknown keys are accepted and ignored.')
  .meta({ id: 'OptionalParams' });

export const SessionId = z.string().min(1).describe('Session id, assigned by the service (ses_<node>_<random>).');

/** A natural-language command; the `.describe()` of each endpoint says what it is for. */
export const Command = z.string().max(MAX_CMD_CHARS);

export const Url = z.string().describe('An http(s) URL.');

export const Temperature = z.number().min(0).max(2).describe('Model temperature (0 to 2).');

export const ScreenshotUrl = z
  .string()
  .describe('Image URL of a PNG screenshot (a capability URL kept 24 h); "" when none was asked for.');
