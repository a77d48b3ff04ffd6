import type { ComponentChildren, InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useId, useLayoutEffect, useRef } from 'preact/hooks';
import type { ApiError } from '../api';

interface Described {
  label: ComponentChildren;
  /** What the relay said is wrong with this field (a 422), shown under it. */
  error?: string | undefined;
  hint?: ComponentChildren;
}

function Help({ id, error, hint }: { id: string; error?: string | undefined; hint?: ComponentChildren }) {
  if (!error && !hint) return null;
  return <small id={id}>{error ?? hint}</small>;
}

function describedBy(id: string, { error, hint }: Described) {
  return {
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-describedby': error || hint ? id : undefined,
  };
}

export function Field({
  label,
  error,
  hint,
  ...input
}: Described & InputHTMLAttributes<HTMLInputElement> & { name: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={`${id}-input`}>{label}</label>
      <input id={`${id}-input`} {...input} {...describedBy(id, { label, error, hint })} />
      <Help id={id} error={error} hint={hint} />
    </div>
  );
}

export function TextArea({
  label,
  error,
  hint,
  ...input
}: Described & TextareaHTMLAttributes<HTMLTextAreaElement> & { name: string }) {
  const id = useId();
  return (
    <div class="field">
      <label for={`${id}-input`}>{label}</label>
      <textarea id={`${id}-input`} {...input} {...describedBy(id, { label, error, hint })} />
      <Help id={id} error={error} hint={hint} />
    </div>
  );
}

export function Select({
  label,
  error,
  hint,
  children,
  defaultValue,
  ...input
}: Described &
  Omit<SelectHTMLAttributes<HTMLSelectElement>, 'defaultValue' | 'role'> & {
    name: string;
    children: ComponentChildren;
    defaultValue?: string;
  }) {
  const id = useId();
  const select = useRef<HTMLSelectElement>(null);
  // <select> has no defaultValue property for Preact to set: the first choice is chosen once, by hand.
  useLayoutEffect(() => {
    if (select.current && defaultValue !== undefined) select.current.value = defaultValue;
  }, []);
  return (
    <div class="field">
      <label for={`${id}-input`}>{label}</label>
      <select ref={select} id={`${id}-input`} {...input} {...describedBy(id, { label, error, hint })}>
        {children}
      </select>
      <Help id={id} error={error} hint={hint} />
    </div>
  );
}

/**
 * What went wrong with a form, in the relay's words. Field errors (422) are shown beside their fields;
 * this shows the rest, and a summary when only fields are wrong.
 */
export function FormError({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <p class="form-error" role="alert">
      {error.message}
    </p>
  );
}
