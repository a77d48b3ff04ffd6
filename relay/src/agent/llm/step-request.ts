// The request of one step, as the planner sends it (and the prompt-tokens benchmark measures it).
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { type ChatBody, estimateRequestTokens, IMAGE_TOKENS, type OutputMode } from '../../model/index';
import type { PlanInput } from '../planner';
import { stepMessage, systemPrompt } from './prompts';
import { DECISION_JSON_SCHEMA, DECISION_TOOL, STRICT_DECISION_JSON_SCHEMA, withoutDescriptions } from './schema';

/** Below this room for the step message, the tool schema goes without its descriptions. */
const MIN_STEP_TOKENS = 2_000;
const COMPACT_DECISION_JSON_SCHEMA = withoutDescriptions(DECISION_JSON_SCHEMA) as typeof DECISION_JSON_SCHEMA;

export interface StepRequest {
  body: ChatBody;
  /** The tool schema went without descriptions to leave the page more room. */
  compact: boolean;
}

/** Below this room for the step's text, a screenshot is left out: the page's text matters more. */
export const MIN_TEXT_TOKENS_WITH_IMAGE = 1_500;

const SCREENSHOT_NOTE =
  "# Screenshot\nThe image shows the viewport as it is now, with each element's index drawn in a coloured box at its top-left corner: the same indices as in the page snapshot.";

/**
 * The step's request in `mode`, its user message fitted to what `promptTokens` (the model's room for
 * the prompt, when known) leaves after the system prompt and the mode's schema. `image` (a data URL of
 * the set-of-marks screenshot) goes with it when there is room for it and enough text.
 */
export function stepRequest(
  input: PlanInput,
  mode: OutputMode,
  promptTokens: number | undefined,
  image?: string,
): StepRequest {
  const system = systemPrompt(mode);
  // Everything but the user message's text: the system prompt, the schema, each message's overhead.
  const frame: ChatCompletionMessageParam[] = [
    { role: 'system', content: system },
    { role: 'user', content: '' },
  ];
  const fixed = (compact: boolean) => estimateRequestTokens(requestBody(mode, frame, undefined, compact));
  const compact = promptTokens !== undefined && promptTokens - fixed(false) < MIN_STEP_TOKENS;
  const room = promptTokens === undefined ? undefined : promptTokens - fixed(compact);
  const withImage = image !== undefined && (room === undefined || room - IMAGE_TOKENS >= MIN_TEXT_TOKENS_WITH_IMAGE);
  const user: ChatCompletionMessageParam = withImage
    ? {
        role: 'user',
        content: [
          {
            type: 'text',
            text: `${stepMessage(input, room === undefined ? undefined : room - IMAGE_TOKENS)}\n\n${SCREENSHOT_NOTE}`,
          },
          { type: 'image_url', image_url: { url: image, detail: 'high' } },
        ],
      }
    : { role: 'user', content: stepMessage(input, room) };
  const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: system }, user];
  return { body: requestBody(mode, messages, input.temperature, compact), compact };
}

/**
 * `compact`: the tool's schema without descriptions (the system prompt describes every action too),
 * for a context too small for both.
 */
export function requestBody(
  mode: OutputMode,
  messages: ChatCompletionMessageParam[],
  temperature: number | undefined,
  compact = false,
): ChatBody {
  const body: ChatBody = { messages };
  if (temperature !== undefined) body.temperature = temperature;
  if (mode === 'tools') {
    // One tool whose arguments are the whole decision, forced: memory, goal and several actions in one
    // call, with no reliance on parallel tool calls or tool_choice "required" (patchy on local servers).
    body.tools = [
      {
        type: 'function',
        function: {
          name: DECISION_TOOL,
          description: 'Submit your decision for this step: memory, next_goal and the actions to run.',
          parameters: compact ? COMPACT_DECISION_JSON_SCHEMA : DECISION_JSON_SCHEMA,
        },
      },
    ];
    body.tool_choice = { type: 'function', function: { name: DECISION_TOOL } };
  } else if (mode === 'json_schema') {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: 'decision', strict: true, schema: STRICT_DECISION_JSON_SCHEMA },
    };
  }
  return body;
}
