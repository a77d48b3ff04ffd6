import { useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Submission {
  busy: boolean;
  error: ApiError | undefined;
  /** A form's onSubmit: runs the action with the form's fields, keeps the error to show beside the form. */
  onSubmit(event: SubmitEvent): Promise<void>;
  /** Runs an action that is not a form (a button), with the same busy and error handling. */
  run(action: () => Promise<unknown>): Promise<boolean>;
  clear(): void;
}

/** A form's life: busy while the call runs (the button says so), and the relay's words when it fails. */
export function useSubmit(action: (fields: FormData, form: HTMLFormElement) => Promise<unknown>): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e : new ApiError(0, String(e)));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return {
    busy,
    error,
    run,
    clear: () => setError(undefined),
    async onSubmit(event) {
      event.preventDefault();
      const form = event.currentTarget as HTMLFormElement;
      await run(() => action(new FormData(form), form));
    },
  };
}

/** A text field of a form, trimmed; "" when absent. */
export function text(fields: FormData, name: string): string {
  const value = fields.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
