import { dismiss, useToasts } from '../toasts';

/** The one live region notices are read from (polite: it waits for the reader to finish). */
export function ToastRegion() {
  const list = useToasts();
  return (
    <div class="toasts" aria-live="polite" aria-atomic="false">
      {list.map((t) => (
        <div key={t.id} class={`toast toast-${t.tone}`}>
          <span>{t.text}</span>
          <button type="button" class="toast-close" aria-label="Dismiss" onClick={() => dismiss(t.id)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}
