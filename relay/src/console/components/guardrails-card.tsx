import type { GuardrailsResponse } from '@tandem/shared';
import { api } from '../api';
import { toast } from '../toasts';
import { useResource } from '../use-resource';
import { useSubmit } from '../use-submit';
import { FormError, TextArea } from './field';
import { Loaded } from './page';

/** One host pattern a line; blank lines and spaces around are dropped. */
function lines(value: FormDataEntryValue | null): string[] {
  return String(value ?? '')
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** Hard limits the relay enforces whatever the model decides. */
export function GuardrailsCard() {
  const guardrails = useResource(() => api.guardrails());
  return (
    <article class="guardrails" aria-labelledby="guardrails-title">
      <h2 id="guardrails-title">Guardrails</h2>
      <p class="muted">
        Hard limits the relay enforces in remote and local sessions, whatever the model decides. They hold from the next
        session opened.
      </p>
      <Loaded resource={guardrails}>
        {(data) => <GuardrailsForm key={JSON.stringify(data)} data={data} onSaved={guardrails.reload} />}
      </Loaded>
    </article>
  );
}

function GuardrailsForm({ data, onSaved }: { data: GuardrailsResponse; onSaved: () => Promise<void> }) {
  const save = useSubmit(async (fields) => {
    await api.setGuardrails({
      blocked_hosts: lines(fields.get('blocked_hosts')),
      allowed_hosts: lines(fields.get('allowed_hosts')),
    });
    toast('Guardrails saved: new sessions obey them.');
    await onSaved();
  });
  const fields = save.error?.fields ?? {};
  return (
    <form onSubmit={save.onSubmit} noValidate>
      <div class="grid-2">
        <TextArea
          label="Blocked hosts"
          name="blocked_hosts"
          rows={4}
          spellcheck={false}
          defaultValue={data.blocked_hosts.join('\n')}
          placeholder="bank.example"
          error={fields.blocked_hosts}
          hint="One pattern a line. Sessions never open these."
        />
        <TextArea
          label="Allowed hosts only"
          name="allowed_hosts"
          rows={4}
          spellcheck={false}
          defaultValue={data.allowed_hosts.join('\n')}
          placeholder="intranet.example"
          error={fields.allowed_hosts}
          hint="When not empty, the only hosts sessions open."
        />
      </div>
      <p class="fixed-rule">
        <span>File uploads</span> <strong>always blocked</strong>
        <span class="muted"> — file choosers stay closed in both modes and the agent is told so.</span>
      </p>
      <FormError error={save.error} />
      <button type="submit" aria-busy={save.busy} disabled={save.busy}>
        Save guardrails
      </button>
    </form>
  );
}
