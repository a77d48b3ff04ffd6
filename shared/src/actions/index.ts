import { z } from 'zod';
import type { ActionExecutor } from './define';
import { askUser, done, flowActions, wait } from './flow';
import { check, formActions, selectOption, type } from './forms';
import { focus, keyboardActions, pressKey } from './keyboard';
import { goBack, goForward, navigate, navigationActions } from './navigation';
import { click, hover, pointerActions, scroll } from './pointer';
import { switchTab, tabActions } from './tabs';

export { type ActionDefinition, type ActionExecutor, ElementIndex } from './define';
export {
  clickedMessage,
  fieldTookText,
  fileFieldRefusal,
  isSecretInput,
  KEYSTROKE_INPUT_TYPES,
  passwordTypedMessage,
  pressedMessage,
  type TypedField,
  takesKeystrokes,
  typeOutcome,
} from './input-policy';
export { KeyModifier, NamedKey } from './keyboard';
export { DEFAULT_TEXT_WAIT_MS, DEFAULT_WAIT_MS, MAX_WAIT_MS } from './limits';
export { ActionResult, ActionResultCode } from './results';

/**
 * Every action the agent can emit, in the order the planner lists them. Executors: element actions
 * run in the page runtime; navigate, go_back, go_forward, switch_tab and wait run in the driver (wait may be
 * delegated to the runtime); done and ask_user end or pause the step loop.
 */
export const ACTIONS = [
  ...navigationActions,
  ...tabActions,
  ...pointerActions,
  ...formActions,
  ...keyboardActions,
  ...flowActions,
];

/** One action the agent emits, discriminated by `action`. */
export const Action = z
  .discriminatedUnion('action', [
    navigate.schema,
    goBack.schema,
    goForward.schema,
    switchTab.schema,
    click.schema,
    hover.schema,
    scroll.schema,
    type.schema,
    selectOption.schema,
    check.schema,
    pressKey.schema,
    focus.schema,
    wait.schema,
    done.schema,
    askUser.schema,
  ])
  .meta({ id: 'Action' });
export type Action = z.infer<typeof Action>;
/** What a caller may pass before defaults are applied (e.g. `clear` left out of `type`). */
export type ActionInput = z.input<typeof Action>;
export type ActionName = Action['action'];
export type ActionOf<Name extends ActionName> = Extract<Action, { action: Name }>;

/** Names of the actions each executor runs. */
export const ACTION_NAMES = ACTIONS.map((def) => def.name) as ActionName[];

const EXECUTORS = new Map<string, ActionExecutor>(ACTIONS.map((def) => [def.name, def.executor]));

/** Who runs the action: the page runtime, the driver, or the agent loop. */
export function actionExecutor(name: ActionName): ActionExecutor {
  const executor = EXECUTORS.get(name);
  if (!executor) throw new Error(`unknown action ${name}`);
  return executor;
}
