import { z } from 'zod';
import { Command, OptionalParams, ScreenshotUrl, SessionId, Url } from './common';

export const RetrieveMode = z
  .enum(['standard', 'fast', 'ludicrous'])
  .describe('fast/standard use a model; ludicrous uses no model at all (DOM heuristics, milliseconds).')
  .meta({ id: 'RetrieveMode' });
export type RetrieveMode = z.infer<typeof RetrieveMode>;

export const RetrieveRequest = z
  .object({
    cmd: Command.describe('What to extract; stating the meaning and type of each field improves results. May be "".'),
    url: Url.optional().describe('URL to create or continue the session from.'),
    session_id: SessionId.optional().describe('Runs inside that session.'),
    local: z.boolean().default(false).describe('true runs in your browser via the extension.'),
    fields: z.array(z.string()).optional().describe('Names of the output fields (columns).'),
    format: z
      .enum(['json', 'markdown'])
      .default('json')
      .describe('markdown also puts the result as Markdown in message.'),
    max_items: z.number().min(0).default(100).describe('Cap on the number of items.'),
    full_page: z.boolean().default(true).describe('false limits retrieval to the current viewport.'),
    render_js: z.boolean().default(false).describe('Include JS-rendered and ARIA content (slower).'),
    scroll_to_bottom: z.boolean().default(false).describe('Scroll to the bottom (at most 5 s) before retrieving.'),
    mode: RetrieveMode.default('fast'),
    include_screenshot: z.boolean().default(false).describe('Include a screenshot.'),
    optional_params: OptionalParams.optional(),
  })
  .meta({ id: 'RetrieveRequest' });
export type RetrieveRequest = z.infer<typeof RetrieveRequest>;

export const RetrieveResponse = z
  .object({
    message: z.string().describe('Information about the response (the Markdown result when format is markdown).'),
    url: z.string().describe('Last accessed URL.'),
    status: z.string().describe('DONE when extraction finished; CONTINUE when max_items cut the result short.'),
    data: z.array(z.record(z.string(), z.unknown())).describe('The items; each holds the requested fields.'),
    screenshot: ScreenshotUrl.optional(),
    session_id: SessionId.optional(),
  })
  .meta({ id: 'RetrieveResponse' });
export type RetrieveResponse = z.infer<typeof RetrieveResponse>;
