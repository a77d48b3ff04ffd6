// Zod-free, so the dialog shim the extension puts in a page bundles nothing else (`@tandem/shared/dialogs`).
import type { DialogPolicy, DialogType } from './page-events';

/** Custom DOM events between the shim in the page's world and the extension's bridge (isolated world). */
export const DIALOG_EVENT = 'tandem:dialog';
export const DIALOG_POLICY_EVENT = 'tandem:dialog-policy';

/** The answer `policy` gives a dialog of `type` whose default prompt text is `defaultValue`. */
export function dialogAnswer(
  policy: DialogPolicy,
  type: DialogType,
  defaultValue = '',
): { accepted: boolean; answer?: string } {
  if (type === 'alert' || type === 'beforeunload') return { accepted: true };
  if (!policy.accept) return { accepted: false };
  return type === 'prompt' ? { accepted: true, answer: policy.prompt_text ?? defaultValue } : { accepted: true };
}
