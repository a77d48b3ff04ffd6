import { z } from 'zod';
import { SessionId, SessionStatus } from './common';

/** One action of a recorded step: what it was and what came of it, never what was typed. */
export const StepHistoryAction = z
  .object({
    action: z.string().describe('The action: click, type, navigate, done, …'),
    index: z.int().optional().describe('The element it acted on, by its snapshot index, if any.'),
    code: z.string().describe('The result code: ok, navigation, stale_element, …'),
    message: z.string().describe('What happened, as the agent heard it (typed secrets masked).'),
  })
  .describe('An action of a step and its result.');

/** One agent step, as the store keeps it for the session's timeline. */
export const StepHistoryEntry = z
  .object({
    step: z.int().min(1).describe('The step number within the session, from 1.'),
    at: z.string().describe('When the step started (ISO 8601, UTC).'),
    duration_ms: z.int().min(0).describe('How long the step took.'),
    cmd: z.string().describe('The task the step worked on (secrets as <secret:name> placeholders).'),
    goal: z.string().describe("The agent's goal for the step, when it stated one."),
    actions: z.array(StepHistoryAction),
    url: z.string().describe('The URL after the step.'),
    status: SessionStatus.or(z.literal('FAILED')).describe('CONTINUE, DONE, ASK_USER, or FAILED (an error ended it).'),
    message: z.string().describe('The step message the caller got (or the error).'),
    prompt_tokens: z.int().min(0),
    completion_tokens: z.int().min(0),
    screenshot: z
      .string()
      .optional()
      .describe('Image URL of the page after the step (a capability URL kept as long as the step history).'),
  })
  .describe('One step of a session: command, goal, actions and results, URL, screenshot, tokens and time.');
export type StepHistoryEntry = z.infer<typeof StepHistoryEntry>;

/** A session as the console lists it: live in this relay, or ended and still in the store's records. */
export const ConsoleSession = z
  .object({
    session_id: SessionId,
    state: z
      .enum(['running', 'idle', 'parked', 'ended'])
      .describe(
        'running: an operation is under way; idle: live, waiting; parked: its browser is closed until its next use; ended: closed, expired or gone.',
      ),
    local: z.boolean().describe("Whether it runs in the user's own browser."),
    url: z.string().describe('Its current (or last) page; "" when none was opened.'),
    created_at: z.string().describe('When it was created, ISO 8601.'),
    last_used_at: z.string().describe('When an operation last started or ended on it, ISO 8601.'),
    idle_seconds: z.int().min(0).optional().describe('Seconds since its last use (sessions not ended).'),
    ended_at: z.string().optional().describe('When it ended, ISO 8601.'),
    end_reason: z
      .string()
      .optional()
      .describe('Why it ended: closed, expired, closed_in_browser, stopped_in_browser, crashed, node_stopped, …'),
    status: z.string().optional().describe("Its latest step's status: CONTINUE, ASK_USER, DONE or FAILED."),
    steps: z.int().min(0).describe('Agent steps it ran.'),
    last_step_at: z.string().optional().describe('When its latest step started, ISO 8601.'),
    screenshot: z.string().optional().describe('Image URL of the page after its latest step.'),
  })
  .describe('A live or recent session.')
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof ConsoleSession>;

export const ConsoleSessionsResponse = z
  .object({
    sessions: z
      .array(ConsoleSession)
      .describe('Sessions not ended first (newest first), then ended ones (latest ended first).'),
  })
  .describe("The caller's live and recent sessions.");
export type ConsoleSessionsResponse = z.infer<typeof ConsoleSessionsResponse>;

/** A chunk of a session's live timeline. */
export const TimelineChunk = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('step'), step: StepHistoryEntry }).describe('A step, recorded or just finished.'),
    z
      .object({
        type: z.literal('end'),
        reason: z.string().describe('Why the session ended (closed, expired, …), or "not live".'),
      })
      .describe('The session is over: no more steps come.'),
  ])
  .describe("One event of a session's live timeline.");
export type TimelineChunk = z.infer<typeof TimelineChunk>;

export const SessionStepsResponse = z
  .object({
    session_id: SessionId,
    steps: z.array(StepHistoryEntry).describe('Oldest first.'),
  })
  .describe("A session's step timeline, also after it ended or the relay restarted (kept TANDEM_HISTORY_DAYS).");
export type SessionStepsResponse = z.infer<typeof SessionStepsResponse>;
