import { z } from 'zod';
import { Action, ActionResult } from '../actions/index';
import { ContentOptions, PageContent } from '../page/content-schema';
import { Snapshot, SnapshotOptions } from '../page/schema';
import { DialogPolicy, PageEventWire } from './page-events';
import { TabId } from './tabs';

export const SnapshotParams = z
  .object({ tabId: TabId, options: SnapshotOptions.partial().default({}).describe('Snapshot options.') })
  .describe('Takes a snapshot of the session tab with the page runtime.');

export const SnapshotResult = Snapshot.describe('The page runtime snapshot of the tab.');

/**
 * Element actions only (executor `runtime`): the relay runs navigate/back/forward/wait through the tab
 * commands, and the extension refuses any other action with `bad_request`.
 */
export const ActParams = z
  .object({
    tabId: TabId,
    action: Action.describe('One action with executor runtime (click, type, scroll...).'),
    dialogs: DialogPolicy.optional().describe(
      'How dialogs are answered from now on in this tab (dismissed when never set).',
    ),
  })
  .describe('Runs one element action with the page runtime and waits (bounded) for the page to settle.');

export const ActResult = ActionResult.extend({
  navigated: z.boolean().describe('A new document started loading during or right after the action.'),
  tabUrl: z.string().describe('The tab URL once the page settled.'),
  status: z
    .int()
    .min(0)
    .max(999)
    .optional()
    .describe("After a navigation, the HTTP status of the new document's response, when known."),
  events: z
    .array(PageEventWire)
    .max(100)
    .optional()
    .describe('What the page did by itself since the last action (dialogs answered, tabs opened), oldest first.'),
}).describe('The runtime result plus whether the page navigated.');
export type ActResult = z.infer<typeof ActResult>;

export const ContentParams = z
  .object({
    tabId: TabId,
    options: ContentOptions.partial().default({}).describe('Content model options.'),
    scroll_to_bottom_ms: z
      .int()
      .min(0)
      .max(30_000)
      .optional()
      .describe('Scroll to the bottom for at most this long first.'),
    settle_ms: z.int().min(0).max(30_000).optional().describe('Wait at most this long for a loading page first.'),
  })
  .describe("Reads the tab's content model for retrieve with the page runtime.");

export const ContentResult = PageContent.describe('The page runtime content model of the tab.');
