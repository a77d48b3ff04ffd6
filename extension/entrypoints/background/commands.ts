import type { CommandName, CommandParams, CommandResult } from '@tandem/shared';
import { act, content, snapshot } from './dom';
import { screenshot } from './screenshot';
import { back, closeTab, forward, navigate, openTab, tabState } from './tabs';

type Handlers = { [C in CommandName]: (params: CommandParams<C>) => Promise<CommandResult<C>> };

/** The allow-list: the only things the relay can ask for. No raw CDP, no script from the wire. */
export const COMMAND_HANDLERS: Handlers = {
  'tab.open': openTab,
  'tab.close': closeTab,
  'tab.info': (params) => tabState(params.tabId),
  navigate,
  back,
  forward,
  snapshot,
  act,
  content,
  screenshot,
};
