import { z } from 'zod';
import { Mark } from '../page/schema';

/** The extension's tab id for a session's tab (chrome.tabs ids are positive integers). */
export const TabId = z.int().min(0).describe('Chrome tab id of the session tab.');

/** Where a tab is now, reported after every tab command. */
export const TabState = z
  .object({
    tabId: TabId,
    url: z.string().describe('The tab URL after the command ("" for about:blank).'),
    title: z.string().describe('The document title.'),
    status: z
      .int()
      .min(0)
      .max(999)
      .optional()
      .describe("The HTTP status of the document's response, when the browser reports one."),
  })
  .describe('A tab and where it is.');
export type TabState = z.infer<typeof TabState>;

/** Where a tab is after back/forward, and whether it had a page in that direction at all. */
export const HistoryResult = TabState.extend({
  moved: z
    .boolean()
    .default(true)
    .describe("False when the tab's history had no page in that direction: nothing happened."),
}).describe('A tab after a history step.');
export type HistoryResult = z.infer<typeof HistoryResult>;

export const TabOpenParams = z
  .object({
    sessionId: z.string().min(1).max(200).describe('The relay session the tab belongs to; names its tab group.'),
    url: z.string().url().describe('The first URL to open (http or https).'),
  })
  .describe('Opens a new tab for a session, in a tab group named for it.');

export const TabParams = z.object({ tabId: TabId }).describe('Addresses one session tab.');

export const NavigateParams = z
  .object({ tabId: TabId, url: z.string().url().describe('http(s) URL to load in the tab.') })
  .describe('Loads a URL in the session tab and waits (bounded) for it to load.');

export const ScreenshotParams = z
  .object({
    tabId: TabId,
    marks: z
      .array(Mark)
      .max(5000)
      .optional()
      .describe('Element indices to draw over the page for this capture (set-of-marks), with their boxes.'),
    jpeg_quality: z
      .int()
      .min(10)
      .max(100)
      .optional()
      .describe('Capture as JPEG at this quality instead of PNG (smaller, for a model).'),
  })
  .describe('Captures the visible viewport of the session tab.');

export const ScreenshotResult = z
  .object({
    png: z.string().describe('The visible viewport as base64: a PNG, or a JPEG when jpeg_quality was given.'),
  })
  .describe('A screenshot of the session tab.');
