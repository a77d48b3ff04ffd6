import { z } from 'zod';

/**
 * How a session answers the page's `confirm()` and `prompt()` (an `alert()` can only be acknowledged,
 * a `beforeunload` is always let through so the agent's navigation goes on). Both drivers apply it the
 * moment a dialog opens: nothing waits for the model, so a dialog never blocks a step.
 */
export const DialogPolicy = z
  .object({
    accept: z.boolean().describe('confirm() answers true and prompt() answers a text; otherwise false and null.'),
    prompt_text: z
      .string()
      .max(1000)
      .optional()
      .describe('What an accepted prompt() answers; its own default value when absent.'),
  })
  .describe('The answers the page gets to confirm() and prompt().');
export type DialogPolicy = z.infer<typeof DialogPolicy>;

export const DIALOG_TYPES = ['alert', 'confirm', 'prompt', 'beforeunload'] as const;
export type DialogType = (typeof DIALOG_TYPES)[number];

/** What the page did by itself, as the extension saw it; the relay words it for the agent. */
export const PageEventWire = z
  .discriminatedUnion('kind', [
    z
      .object({
        kind: z.literal('dialog'),
        type: z.enum(DIALOG_TYPES),
        message: z.string().max(2000).describe('The text the page gave the dialog (cut to 2000 characters).'),
        accepted: z.boolean().describe('Whether it was accepted (OK) or dismissed (Cancel).'),
        answer: z.string().max(1000).optional().describe('The text an accepted prompt() returned.'),
      })
      .describe('A JavaScript dialog, answered at once by the dialog policy.'),
    z
      .object({
        kind: z.literal('popup'),
        url: z.string().max(4000).describe('Where the new tab went, when known.'),
      })
      .describe('The page opened a new tab or window.'),
    z
      .object({
        kind: z.literal('download_refused'),
        file: z.string().max(500).describe("The file's name when known, else where it came from."),
      })
      .describe('The page started a download; the extension cancelled it and removed what had arrived.'),
    z
      .object({ kind: z.literal('file_chooser_refused') })
      .describe('The page asked for a file chooser (a file input, showPicker, showOpenFilePicker); none opened.'),
  ])
  .describe('Something the page did by itself during or between actions.');
export type PageEventWire = z.infer<typeof PageEventWire>;
