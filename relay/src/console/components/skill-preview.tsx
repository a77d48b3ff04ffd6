import type { SkillPreviewResponse } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { text, useSubmit } from '../use-submit';
import { Field, FormError } from './field';

/** "Which rules apply to this URL": the relay answers by the same matching the agent uses. */
export function SkillPreview() {
  const [answer, setAnswer] = useState<SkillPreviewResponse>();
  const preview = useSubmit(async (fields) => {
    setAnswer(await api.previewSkills(text(fields, 'url')));
  });
  return (
    <article>
      <h2>Which rules apply here?</h2>
      <form class="inline-form" onSubmit={preview.onSubmit} noValidate>
        <Field
          label="Page URL"
          name="url"
          type="url"
          required
          placeholder="https://www.shop.example/cart"
          error={preview.error?.fields.url}
        />
        <button type="submit" class="secondary" aria-busy={preview.busy} disabled={preview.busy}>
          Check
        </button>
      </form>
      <FormError error={preview.error} />
      {answer && (
        <div class="preview" aria-live="polite">
          {answer.skills.length === 0 ? (
            <p class="muted">No enabled rule applies to {answer.url}.</p>
          ) : (
            <>
              <p class="muted">
                On {answer.url} the agent reads {answer.skills.length === 1 ? 'this rule' : 'these rules'}:
              </p>
              <ul class="preview-list">
                {answer.skills.map((s) => (
                  <li key={s.id}>
                    <code class="pattern">{s.host_pattern}</code> {s.rule}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </article>
  );
}
