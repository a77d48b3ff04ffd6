/**
 * Retrieve (API §7): read the session's page into the content model, turn it into items with DOM
 * heuristics (ludicrous) or a model (fast/standard), cap, and phrase the answer.
 */
import type { PageContent, RetrieveRequest } from '@tandem/shared';
import type { Config } from '../config';
import { emptyUsage, type ModelClient, ModelError, type Usage } from '../model/index';
import { throwIfCancelled } from '../sessions/cancellation';
import type { Session } from '../sessions/session';
import { fieldTypes } from './heuristic/hints';
import { extractHeuristic, type Item } from './heuristic/index';
import { extractWithModel, ModelAnswerError } from './llm/extract';
import { itemsTable, mainContentMarkdown } from './markdown';

/** API §Limits: scroll_to_bottom scrolls for at most 5 seconds. */
export const SCROLL_TO_BOTTOM_MS = 5_000;
/** render_js waits at most this long for the network to go quiet. */
export const RENDER_JS_SETTLE_MS = 3_000;

export interface RetrieveResult {
  message: string;
  status: 'DONE' | 'CONTINUE';
  data: Item[];
  /** The model's tokens for this retrieve (all zero without a model call), for the usage ledger. */
  usage: Usage;
}

/** The settings that pick retrieve's model. */
type ModelSettings = Pick<Config, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'TANDEM_MODEL_FAST' | 'TANDEM_MODEL_STANDARD'>;

/** What retrieve needs from the relay: its model settings and the model client (absent: no endpoint configured). */
export interface RetrieveDeps {
  config: ModelSettings;
  model?: ModelClient | undefined;
}

/** The model for a mode: either one serves both when only one is set; undefined when none is configured. */
export function retrieveModel(config: ModelSettings, mode: 'fast' | 'standard'): string | undefined {
  if (!config.OPENAI_BASE_URL && !config.OPENAI_API_KEY) return undefined;
  return mode === 'fast'
    ? (config.TANDEM_MODEL_FAST ?? config.TANDEM_MODEL_STANDARD)
    : (config.TANDEM_MODEL_STANDARD ?? config.TANDEM_MODEL_FAST);
}

function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What scroll_to_bottom did, as the driver measured it. */
function scrollNote(scrolled: PageContent['scrolled']): string {
  const limit = SCROLL_TO_BOTTOM_MS / 1000;
  if (!scrolled) return `scroll_to_bottom: the browser did not report scrolling (limit ${limit} s).`;
  return scrolled.reached_bottom
    ? `scroll_to_bottom: reached the bottom (scrolled for ${scrolled.ms} ms, limit ${limit} s).`
    : `scroll_to_bottom: the page was still growing at the ${limit} s scroll limit (scrolled for ${scrolled.ms} ms), so items further down may be missing; narrow the page (filters, pagination) to get them.`;
}

export async function runRetrieve(
  deps: RetrieveDeps,
  session: Session,
  request: RetrieveRequest,
  signal?: AbortSignal,
): Promise<RetrieveResult> {
  const { config } = deps;
  const usage = emptyUsage();
  const started = Date.now();
  const driver = session.driver;
  const content = await driver.content({
    full_page: request.full_page,
    render_js: request.render_js,
    ...(request.scroll_to_bottom ? { scroll_to_bottom_ms: SCROLL_TO_BOTTOM_MS } : {}),
    ...(request.render_js ? { settle_ms: RENDER_JS_SETTLE_MS } : {}),
  });
  const fields = request.fields && request.fields.length > 0 ? request.fields : undefined;
  // max_items is a double in the contract; a fraction means its whole part.
  const cap = Math.floor(request.max_items);
  const notes: string[] = request.scroll_to_bottom ? [scrollNote(content.scrolled)] : [];
  let items: Item[] | undefined;
  let how = 'ludicrous mode, no model';

  if (request.mode !== 'ludicrous' && cap === 0) {
    // Nothing asked for: a model call would only cost time and tokens. The heuristics still count
    // what the page holds, so status says whether there was more.
    how = `${request.mode} mode, no model call for max_items ${request.max_items}`;
  } else if (request.mode !== 'ludicrous') {
    const model = retrieveModel(config, request.mode);
    if (!model || !deps.model) {
      notes.push(
        `No model is configured (set OPENAI_BASE_URL or OPENAI_API_KEY, and TANDEM_MODEL_FAST or TANDEM_MODEL_STANDARD), so ${request.mode} mode fell back to ludicrous mode (DOM heuristics, no model).`,
      );
    } else {
      const params = request.optional_params ?? {};
      try {
        const result = await extractWithModel({
          client: deps.model,
          model,
          tier: request.mode,
          signal,
          usage,
          content,
          cmd: request.cmd,
          fields,
          types: fieldTypes(request.cmd, fields ?? []),
          chunkChars: positiveInt(params.chunk_chars),
          overlapChars: positiveInt(params.chunk_overlap),
        });
        items = result.items;
        how = `${request.mode} mode, model ${model}${result.chunks > 1 ? `, ${result.chunks} chunks` : ''}`;
      } catch (error) {
        throwIfCancelled(signal);
        const reason =
          error instanceof ModelAnswerError
            ? `its answer was unusable: ${error.message}`
            : error instanceof ModelError
              ? error.message
              : `the model call failed: ${(error as Error).message}`;
        notes.push(`The model failed (${reason}), so these items come from ludicrous mode (DOM heuristics, no model).`);
      }
    }
  }
  if (!items) items = extractHeuristic(content, request.cmd, fields).items;

  const cut = items.length > cap;
  const data = cut ? items.slice(0, cap) : items;
  const status = cut ? 'CONTINUE' : 'DONE';
  const ms = Date.now() - started;
  const summary = `Retrieved ${plural(data.length, 'item')}${cut ? ` of ${items.length} (max_items ${request.max_items}; more remain)` : ''} from ${content.title ? `"${content.title}"` : content.url} (${how}, ${ms} ms).`;

  let message = [summary, ...notes].join(' ');
  if (request.format === 'markdown') {
    const columns = fields ?? [...new Set(data.flatMap((item) => Object.keys(item)))];
    const markdown = fields ? itemsTable(data, columns) : mainContentMarkdown(content).markdown;
    message = [markdown, '', ...notes].join('\n').trim();
  }
  return { message, status, data, usage };
}
