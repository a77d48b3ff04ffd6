import type { DialogPolicy, DialogType } from '@tandem/shared';
import { DIALOG_EVENT, DIALOG_POLICY_EVENT, dialogAnswer } from '@tandem/shared/dialogs';

// Runs in the page's own world (chrome.scripting, world MAIN) of a session tab, from the moment its
// document commits: alert(), confirm() and prompt() answer at once by the session's dialog policy, so
// a dialog never blocks the page (and with it every script the extension runs there). What was asked
// and answered goes to the extension's bridge (isolated world) as a DOM event, the one channel the
// two worlds share.
export default defineUnlistedScript(() => {
  const marker = Symbol.for('tandem.dialogs');
  const page = window as unknown as Record<symbol, boolean>;
  if (page[marker]) return;
  page[marker] = true;

  let policy: DialogPolicy = { accept: false };
  document.addEventListener(DIALOG_POLICY_EVENT, (event) => {
    try {
      policy = JSON.parse(String((event as CustomEvent).detail)) as DialogPolicy;
    } catch {
      // Not ours (the page can dispatch this event too); the policy stays.
    }
  });

  const report = (type: DialogType, message: unknown, accepted: boolean, answer?: string) => {
    const detail = JSON.stringify({
      kind: 'dialog',
      type,
      message: String(message ?? '').slice(0, 2000),
      accepted,
      ...(answer !== undefined ? { answer: answer.slice(0, 1000) } : {}),
    });
    document.dispatchEvent(new CustomEvent(DIALOG_EVENT, { detail }));
  };

  // File choosers: a local session must not open the user's file dialog (uploads are not supported, as
  // in a remote session). Every way a page opens one for a file input goes through a click on it (the
  // user's, a label's, the page's own input.click()), whose default action is the chooser; showPicker()
  // and the File System Access pickers are the others.
  const reportFileChooser = (): void => {
    document.dispatchEvent(new CustomEvent(DIALOG_EVENT, { detail: JSON.stringify({ kind: 'file_chooser_refused' }) }));
  };
  const InputElement = HTMLInputElement;
  const isFileInput = (node: unknown): node is HTMLInputElement => node instanceof InputElement && node.type === 'file';
  window.addEventListener(
    'click',
    (event) => {
      if (!isFileInput(event.composedPath()[0]) || event.defaultPrevented) return;
      event.preventDefault();
      reportFileChooser();
    },
    true,
  );
  const showPicker = InputElement.prototype.showPicker;
  if (showPicker) {
    InputElement.prototype.showPicker = function (this: HTMLInputElement): void {
      if (isFileInput(this)) reportFileChooser();
      else showPicker.call(this);
    };
  }
  const pickers = window as unknown as Record<string, unknown>;
  for (const name of ['showOpenFilePicker', 'showDirectoryPicker', 'showSaveFilePicker']) {
    if (typeof pickers[name] !== 'function') continue;
    // As if the user pressed Cancel: the page's own error handling goes on.
    pickers[name] = async () => {
      reportFileChooser();
      throw new DOMException('The user aborted a request.', 'AbortError');
    };
  }

  window.alert = function alert(message?: unknown): void {
    report('alert', message, true);
  };
  window.confirm = function confirm(message?: string): boolean {
    const { accepted } = dialogAnswer(policy, 'confirm');
    report('confirm', message, accepted);
    return accepted;
  };
  window.prompt = function prompt(message?: string, defaultValue?: string): string | null {
    const { accepted, answer } = dialogAnswer(policy, 'prompt', defaultValue ?? '');
    report('prompt', message, accepted, answer);
    return accepted ? (answer ?? '') : null;
  };
});
