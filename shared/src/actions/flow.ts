import { z } from 'zod';
import { defineAction } from './define';
import { DEFAULT_TEXT_WAIT_MS, DEFAULT_WAIT_MS, MAX_WAIT_MS } from './limits';

/** Waits a fixed time, or until some text is on the page (bounded). */
export const wait = defineAction({
  name: 'wait',
  executor: 'driver',
  description: 'Wait a moment, or until some text appears on the page (for content that loads late).',
  shape: {
    ms: z
      .int()
      .min(0)
      .max(MAX_WAIT_MS)
      .optional()
      .describe(
        `Milliseconds to wait (default ${DEFAULT_WAIT_MS}); with until_text, the longest to wait for it (default ${DEFAULT_TEXT_WAIT_MS}).`,
      ),
    until_text: z
      .string()
      .min(1)
      .optional()
      .describe('Stop waiting as soon as this text is visible on the page (case-insensitive).'),
  },
});

/** Ends the task with a final answer. */
export const done = defineAction({
  name: 'done',
  executor: 'agent',
  description: 'Finish the task and give the final answer or result to the user.',
  shape: {
    message: z.string().describe('The final answer: what was done, or the information that was asked for.'),
  },
});

/** Pauses the task to ask the user for something only they know. */
export const askUser = defineAction({
  name: 'ask_user',
  executor: 'agent',
  description: 'Ask the user for information you need and cannot find (a choice, a code, missing details).',
  shape: {
    question: z.string().describe('The question for the user, short and specific.'),
  },
});

export const flowActions = [wait, done, askUser] as const;
