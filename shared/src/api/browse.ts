import { z } from 'zod';
import {
  AgentMode,
  Command,
  OptionalParams,
  ScreenshotUrl,
  SessionId,
  SessionStatus,
  Temperature,
  Url,
} from './common';
import { type ApiLimits, DEFAULT_API_LIMITS, DEFAULT_MAX_STEPS } from './limits';

export const BrowseMetadata = z
  .object({
    step_count: z.int().optional().describe('Number of steps executed for the browse request.'),
    processing_time: z.int().optional().describe('Seconds taken to process the request.'),
    temperature: z.number().optional().describe('Model temperature.'),
  })
  .meta({ id: 'BrowseMetadata' });
export type BrowseMetadata = z.infer<typeof BrowseMetadata>;

/** Browse's `max_steps` under a relay's cap (TANDEM_MAX_STEPS). */
const maxSteps = (limits: ApiLimits) =>
  z
    .int()
    .min(1)
    .max(limits.maxSteps)
    .default(Math.min(DEFAULT_MAX_STEPS, limits.maxSteps))
    .describe(
      `Most steps to take before returning (1 to ${limits.maxSteps}; the relay's TANDEM_MAX_STEPS sets the maximum).`,
    );

/** Browse's request with the default limits (the type, and what a relay with default settings accepts). */
export const BrowseRequest = z
  .object({
    cmd: Command.describe('Natural-language instruction.'),
    url: Url.optional().describe('URL to start or continue from; default is a general search site.'),
    local: z.boolean().default(false).describe('true runs in your browser via the extension, false in the service.'),
    session_id: SessionId.optional().describe('Continues that session.'),
    max_steps: maxSteps(DEFAULT_API_LIMITS),
    include_screenshot: z.boolean().default(false).describe('Include a screenshot of the final page.'),
    temperature: Temperature.optional(),
    agent_id: z.string().optional().describe('Agent profile to use for the session.'),
    mode: AgentMode.optional(),
    use_proxy: z.boolean().default(false).describe('Give the session a new residential IP through a proxy.'),
    optional_params: OptionalParams.optional(),
  })
  .meta({ id: 'BrowseRequest' });
export type BrowseRequest = z.infer<typeof BrowseRequest>;

/** Browse's request with the step cap of a relay's configuration. */
export const browseRequest = (limits: ApiLimits) =>
  BrowseRequest.extend({ max_steps: maxSteps(limits) }).meta({ id: 'BrowseRequest' });

export const BrowseResponse = z
  .object({
    message: z.string().describe('Final message or result.'),
    status: SessionStatus,
    url: z.string().describe('Current URL of the session.'),
    screenshot: ScreenshotUrl,
    session_id: SessionId,
    metadata: BrowseMetadata.optional(),
  })
  .meta({ id: 'BrowseResponse' });
export type BrowseResponse = z.infer<typeof BrowseResponse>;
