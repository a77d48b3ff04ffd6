import type { ComponentChildren } from 'preact';
import { CopyButton } from './copy-button';

/** A value the relay answers only this once (an API key, a made password): shown with a copy button. */
export function ShownOnce({
  title,
  label,
  value,
  children,
  onDone,
}: {
  title: string;
  /** The accessible name of the value's box ("The new API key"). */
  label: string;
  value: string;
  children?: ComponentChildren;
  onDone: () => void;
}) {
  return (
    <article class="shown-once" aria-labelledby="shown-once-title">
      <h2 id="shown-once-title">{title}</h2>
      <p>
        <strong>Copy it now: you will not see it again.</strong> {children}
      </p>
      <div class="reveal">
        <input readOnly aria-label={label} value={value} onFocus={(e) => e.currentTarget.select()} spellcheck={false} />
        <CopyButton text={value} label={`Copy ${label.replace(/^The /, 'the ')}`} />
      </div>
      <button type="button" class="secondary small" onClick={onDone}>
        I have copied it
      </button>
    </article>
  );
}
