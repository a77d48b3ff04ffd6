// One wording of what the page did by itself, whichever driver saw it: the agent reads the same
// event for an alert in a remote session and in a local one.
import type { DialogPolicy, DialogType, PageEventWire } from '@tandem/shared';
import type { PageEvent } from './driver';

/** Until a step sets one: the page's questions are declined, since no task asked to agree to anything. */
export const DISMISS_DIALOGS: DialogPolicy = { accept: false };

const quoted = (text: string) => (text ? `: "${text.replace(/\s+/g, ' ').trim().slice(0, 200)}"` : '');

/** The event the agent reads for a dialog the policy answered. */
export function dialogEvent(type: DialogType, text: string, accepted: boolean, answer?: string): PageEvent {
  let outcome: string;
  if (type === 'alert') outcome = 'it was acknowledged';
  else if (type === 'beforeunload') outcome = 'leaving the page was allowed';
  else if (!accepted) {
    outcome = `it was dismissed (Cancel) because the task did not ask to ${type === 'confirm' ? 'confirm' : 'answer'} it; the page got ${type === 'confirm' ? 'false' : 'null'}`;
  } else if (type === 'prompt') outcome = `it was answered with ${JSON.stringify(answer ?? '')}`;
  else outcome = 'it was accepted (OK)';
  return {
    kind: 'dialog',
    message: `The page showed ${type === 'alert' ? 'an' : 'a'} ${type} dialog${quoted(text)}; ${outcome}.`,
  };
}

/** The event the agent reads for a download the driver cancelled: `file` is its name, or its URL. */
export function downloadRefusedEvent(file: string): PageEvent {
  return {
    kind: 'download_refused',
    message: `The page started a download (${file}); downloads are not supported and it was refused.`,
  };
}

/** The event the agent reads when the page asked for a file chooser the driver kept closed. */
export function fileChooserRefusedEvent(): PageEvent {
  return {
    kind: 'file_chooser_refused',
    message: 'The page asked for a file to upload; uploading files is not supported, so nothing was chosen.',
  };
}

/** The extension's report of a page event, in the relay's words. */
export function pageEvent(wire: PageEventWire): PageEvent {
  if (wire.kind === 'dialog') return dialogEvent(wire.type, wire.message, wire.accepted, wire.answer);
  if (wire.kind === 'download_refused') return downloadRefusedEvent(wire.file);
  if (wire.kind === 'file_chooser_refused') return fileChooserRefusedEvent();
  return {
    kind: 'popup',
    message: `The page opened a new tab${wire.url ? ` at ${wire.url}` : ''}; a local session stays in its own tab, so that tab was left to the user.`,
  };
}

/**
 * The policy for a task (TANDEM_DIALOGS=auto): the page's questions are agreed to only when the task
 * says to confirm, accept or agree, and a prompt gets the text the task quotes for it, if any.
 */
export function dialogPolicyFor(task: string, setting: 'auto' | 'accept' | 'dismiss'): DialogPolicy {
  if (setting === 'dismiss') return DISMISS_DIALOGS;
  const promptText = quotedAnswer(task);
  if (setting === 'accept' || /\b(confirm|confirming|accept|accepting|agree|agreeing|approve|ok|yes)\b/i.test(task)) {
    return promptText === undefined ? { accept: true } : { accept: true, prompt_text: promptText };
  }
  return promptText === undefined ? DISMISS_DIALOGS : { accept: true, prompt_text: promptText };
}

/** The text a task gives a prompt: `answer the prompt with "Ada"`, `enter 'Ada' in the dialog`. */
function quotedAnswer(task: string): string | undefined {
  if (!/\b(prompt|dialog|pop-?up)\b/i.test(task)) return undefined;
  const match = /["“'‘]([^"”'’\n]{1,200})["”'’]/.exec(task);
  return match?.[1];
}
