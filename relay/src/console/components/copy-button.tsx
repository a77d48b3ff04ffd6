import { useState } from 'preact/hooks';
import { toast } from '../toasts';

const COPIED_MS = 2000;

/** Copies `text`; where the browser refuses (plain http on another host), says to copy by hand. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), COPIED_MS);
    } catch {
      toast('This browser did not allow copying here: select the text and copy it by hand.', 'error');
    }
  };
  return (
    <button type="button" class="secondary outline small copy" aria-label={label} title={label} onClick={copy}>
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
