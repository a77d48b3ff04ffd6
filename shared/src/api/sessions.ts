import { z } from 'zod';
import {
  AgentMode,
  BrowserParams,
  Command,
  OptionalParams,
  ScreenshotUrl,
  SessionId,
  SessionStatus,
  Temperature,
  Url,
} from './common';

export const CreateSessionRequest = z
  .object({
    url: Url.describe('URL to create the session from.'),
    local: z.boolean().default(false).describe('true opens a tab in your browser via the extension.'),
    agent_id: z.string().optional().describe('Agent profile to use for the session.'),
    mode: AgentMode.optional(),
    use_proxy: z.boolean().default(false).describe('New residential IP for this session through a proxy.'),
    browser_params: BrowserParams.optional(),
    include_screenshot: z.boolean().default(false).describe('Include a screenshot of the opened page.'),
    optional_params: OptionalParams.optional(),
  })
  .meta({ id: 'CreateSessionRequest' });
export type CreateSessionRequest = z.infer<typeof CreateSessionRequest>;

export const CreateSessionResponse = z
  .object({
    status: SessionStatus,
    message: z.string().describe('What happened.'),
    session_id: SessionId,
    url: z.string().describe('Current URL of the session.'),
    screenshot: ScreenshotUrl,
  })
  .meta({ id: 'CreateSessionResponse' });
export type CreateSessionResponse = z.infer<typeof CreateSessionResponse>;

export const StepMetadata = z
  .object({ temperature: z.number().optional().describe('Model temperature.') })
  .meta({ id: 'StepMetadata' });

export const StepRequest = z
  .object({
    cmd: Command.describe('Instruction for the next step; may be "" to let the agent continue.'),
    stream: z.boolean().describe('false returns one JSON object; true returns a Server-Sent Events stream.'),
    url: Url.optional().describe('URL to continue the session from.'),
    browser_params: BrowserParams.optional(),
    temperature: Temperature.optional(),
    agent_id: z.string().optional().describe('Agent profile to use.'),
    mode: AgentMode.optional(),
    include_screenshot: z.boolean().default(false).describe('When true the response carries a screenshot URL.'),
    optional_params: OptionalParams.optional(),
  })
  .meta({ id: 'StepRequest' });
export type StepRequest = z.infer<typeof StepRequest>;

export const StepResponse = z
  .object({
    status: SessionStatus,
    message: z.string().describe('What the agent did or found.'),
    session_id: SessionId,
    url: z.string().describe('Current URL of the session.'),
    screenshot: ScreenshotUrl,
    metadata: StepMetadata.optional(),
  })
  .meta({ id: 'StepResponse' });
export type StepResponse = z.infer<typeof StepResponse>;

export const StreamEventChunk = z
  .object({
    type: z.literal('event'),
    data: z.object({
      delta: z.object({
        content: z.string().describe('What the agent is doing.'),
        url: z.string().describe('Current URL.'),
      }),
      session_id: SessionId.optional(),
    }),
  })
  .meta({ id: 'StreamEventChunk' });

export const StreamFinalChunk = z
  .object({
    type: z.literal('final_event'),
    data: z.object({
      delta: z.object({
        content: z.string().describe('Final message of the step.'),
        url: z.string().describe('Current URL.'),
        status: SessionStatus,
      }),
      screenshot: ScreenshotUrl.optional(),
      session_id: SessionId.optional(),
    }),
  })
  .meta({ id: 'StreamFinalChunk' });

/** One Server-Sent Events chunk of a streamed step (`data: <json>`), discriminated by `type`. */
export const StreamChunk = z.discriminatedUnion('type', [StreamEventChunk, StreamFinalChunk]).meta({
  id: 'StreamChunk',
});
export type StreamChunk = z.infer<typeof StreamChunk>;

export const CloseSessionResponse = z
  .object({
    status: z.string().describe('"closed".'),
    session_id: SessionId,
  })
  .meta({ id: 'CloseSessionResponse' });
export type CloseSessionResponse = z.infer<typeof CloseSessionResponse>;

export const ScreenshotResponse = z
  .object({ screenshot: z.string().describe('Image URL of a fresh screenshot of the session page.') })
  .meta({ id: 'ScreenshotResponse' });
export type ScreenshotResponse = z.infer<typeof ScreenshotResponse>;

export const ListSessionsResponse = z
  .object({ session_ids: z.array(SessionId).describe("IDs of the caller's active sessions.") })
  .meta({ id: 'ListSessionsResponse' });
export type ListSessionsResponse = z.infer<typeof ListSessionsResponse>;

export const SessionIdParams = z.object({ session_id: SessionId });
export type SessionIdParams = z.infer<typeof SessionIdParams>;
