import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { toast } from '../toasts';
import { useSubmit } from '../use-submit';
import { FormError } from './field';

/**
 * A modal <dialog>: the browser keeps focus inside it and Escape closes it; focus goes back to what
 * opened it. Its content is rendered only while open, so a form in it starts afresh each time.
 */
export function Modal({
  open,
  title,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      opener.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
      // A form's first field rather than the close button: the dialog was opened to fill it in.
      dialog.querySelector<HTMLElement>('input:not([type=hidden]), textarea, select')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClose={() => opener.current?.focus()}
    >
      {open && (
        <article>
          <header>
            <button type="button" class="close" aria-label="Close the dialog" onClick={onClose} />
            <h2 id={titleId} class="dialog-title">
              {title}
            </h2>
          </header>
          {children}
        </article>
      )}
    </dialog>
  );
}

/** A button for something that cannot be undone: it asks first, in a dialog, and says how it went. */
export function ConfirmButton({
  label,
  title,
  confirm,
  done,
  onConfirm,
  children,
  className = 'secondary outline small',
  text,
}: {
  /** The trigger's accessible name, naming its object ("Revoke the key nightly"). */
  label: string;
  title: string;
  /** The confirming button's text ("Revoke"). */
  confirm: string;
  /** The notice once done ("Key revoked."). */
  done: string;
  onConfirm: () => Promise<unknown>;
  children: ComponentChildren;
  className?: string;
  /** The trigger's visible text; `confirm` by default. */
  text?: string;
}) {
  const [open, setOpen] = useState(false);
  const submission = useSubmit(async () => {
    await onConfirm();
  });
  const go = async () => {
    if (await submission.run(onConfirm)) {
      setOpen(false);
      toast(done);
    }
  };
  return (
    <>
      <button
        type="button"
        class={className}
        aria-label={label}
        onClick={() => {
          submission.clear();
          setOpen(true);
        }}
      >
        {text ?? confirm}
      </button>
      <Modal open={open} title={title} onClose={() => setOpen(false)}>
        <div class="dialog-body">{children}</div>
        <FormError error={submission.error} />
        <footer>
          <button type="button" class="secondary" onClick={() => setOpen(false)}>
            Cancel
          </button>
          <button type="button" class="danger" aria-busy={submission.busy} disabled={submission.busy} onClick={go}>
            {confirm}
          </button>
        </footer>
      </Modal>
    </>
  );
}
