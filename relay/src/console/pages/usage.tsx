import type { QuotaInfo, UsageResponse } from '@tandem/shared';
import { useState } from 'preact/hooks';
import { api } from '../api';
import { Badge } from '../components/badge';
import { Empty, Loaded, Page } from '../components/page';
import { UsageChart } from '../components/usage-chart';
import { count, date } from '../time';
import { useResource } from '../use-resource';

const PERIODS = [7, 30, 90];

/** Steps, tokens and retrieve calls per day and per key, and the monthly quota. */
export function UsagePage() {
  const [days, setDays] = useState(30);
  const usage = useResource(() => api.usage(days), [days]);
  return (
    <Page
      title="Usage"
      intro="What your keys and sessions used, per day (UTC) and per API key."
      actions={
        <fieldset class="period">
          <legend class="visually-hidden">Period</legend>
          {PERIODS.map((n) => (
            <button
              key={n}
              type="button"
              class={n === days ? '' : 'secondary outline'}
              aria-pressed={n === days}
              onClick={() => setDays(n)}
            >
              {n} days
            </button>
          ))}
        </fieldset>
      }
    >
      <Loaded resource={usage}>{(data) => <UsageView data={data} />}</Loaded>
    </Page>
  );
}

function UsageView({ data }: { data: UsageResponse }) {
  const { totals } = data;
  return (
    <>
      <div class="usage-top">
        <ul class="stats" aria-label={`Totals from ${data.from} to ${data.to}`}>
          <li class="stat">
            <span class="stat-value">{count(totals.steps)}</span>
            <span class="stat-label">agent steps</span>
          </li>
          <li class="stat">
            <span class="stat-value">{count(totals.retrieve_calls)}</span>
            <span class="stat-label">retrieve calls</span>
          </li>
          <li class="stat">
            <span class="stat-value">{count(totals.prompt_tokens + totals.completion_tokens)}</span>
            <span class="stat-label">model tokens</span>
          </li>
        </ul>
        <Quota quota={data.quota} />
      </div>
      <article>
        <h2>Per day</h2>
        <UsageChart days={data.days} />
      </article>
      <section aria-labelledby="per-key-title">
        <h2 id="per-key-title">Per API key</h2>
        {data.keys.length === 0 ? (
          <Empty title="Nothing used in this period" />
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  <th scope="col" class="num">
                    Steps
                  </th>
                  <th scope="col" class="num">
                    Retrieve calls
                  </th>
                  <th scope="col" class="num">
                    Prompt tokens
                  </th>
                  <th scope="col" class="num">
                    Completion tokens
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.keys.map((key) => (
                  <tr key={key.key_id}>
                    <td>
                      {key.key_id ? (
                        <>
                          {key.name} <code>{key.prefix}…</code> {key.revoked && <Badge>revoked</Badge>}
                        </>
                      ) : (
                        <span class="muted">No key (the console, the extension)</span>
                      )}
                    </td>
                    <td class="num">{count(key.steps)}</td>
                    <td class="num">{count(key.retrieve_calls)}</td>
                    <td class="num">{count(key.prompt_tokens)}</td>
                    <td class="num">{count(key.completion_tokens)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  );
}

function Quota({ quota }: { quota: QuotaInfo }) {
  const limit = quota.monthly_steps;
  const share = limit ? Math.min(1, quota.used / limit) : 0;
  return (
    <article class="quota" aria-labelledby="quota-title">
      <h2 id="quota-title">Monthly step quota</h2>
      {limit === null ? (
        <p>
          <strong>{count(quota.used)}</strong> steps this month · <Badge tone="info">unlimited</Badge>
        </p>
      ) : (
        <>
          <p>
            <strong>{count(quota.used)}</strong> of {count(limit)} steps used
            {quota.used >= limit && (
              <>
                {' '}
                <Badge tone="bad">used up</Badge>
              </>
            )}
          </p>
          <progress value={Math.round(share * 100)} max={100} aria-label="Quota used" />
        </>
      )}
      <p class="muted small-text">Starts again {date(quota.resets_at)} (UTC). An admin sets it on the Accounts page.</p>
    </article>
  );
}
