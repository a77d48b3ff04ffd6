import type { UsageDay } from '@tandem/shared';
import { count } from '../time';

const HEIGHT = 160;
/** Each day is 2 units wide: a steps bar and a retrieve bar of 0.7, with the rest as the gap. */
const BAR = 0.7;

/** Steps and retrieve calls per day as bars (plain SVG), with the same figures as a table for screen readers. */
export function UsageChart({ days }: { days: UsageDay[] }) {
  const most = Math.max(1, ...days.map((d) => Math.max(d.steps, d.retrieve_calls)));
  const width = days.length * 2;
  const busiest = days.reduce((a, d) => (d.steps > a.steps ? d : a), days[0] ?? { steps: 0, day: '' });
  return (
    <figure class="chart">
      <div class="chart-legend" aria-hidden="true">
        <span class="key key-steps" /> steps <span class="key key-retrieve" /> retrieve calls
        <span class="chart-max">max {count(most)} a day</span>
      </div>
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} preserveAspectRatio="none" class="chart-svg" aria-hidden="true">
        <line x1="0" y1={HEIGHT - 0.5} x2={width} y2={HEIGHT - 0.5} class="chart-axis" />
        {days.map((d, i) => {
          const steps = (d.steps / most) * (HEIGHT - 4);
          const retrieves = (d.retrieve_calls / most) * (HEIGHT - 4);
          return (
            <g key={d.day}>
              <rect class="bar-steps" x={i * 2 + 0.3} y={HEIGHT - steps} width={BAR} height={steps}>
                <title>{`${d.day}: ${d.steps} steps`}</title>
              </rect>
              <rect class="bar-retrieve" x={i * 2 + 1} y={HEIGHT - retrieves} width={BAR} height={retrieves}>
                <title>{`${d.day}: ${d.retrieve_calls} retrieve calls`}</title>
              </rect>
            </g>
          );
        })}
      </svg>
      <div class="chart-axis-labels" aria-hidden="true">
        <span>{days[0]?.day}</span>
        <span>{days.at(-1)?.day}</span>
      </div>
      <figcaption class="muted small-text">
        {busiest.steps > 0 ? `Busiest day: ${busiest.day}, ${count(busiest.steps)} steps.` : 'No steps in this period.'}
      </figcaption>
      <details class="chart-table">
        <summary>The days as a table</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" class="num">
                  Steps
                </th>
                <th scope="col" class="num">
                  Retrieve calls
                </th>
                <th scope="col" class="num">
                  Tokens
                </th>
              </tr>
            </thead>
            <tbody>
              {days
                .filter((d) => d.steps || d.retrieve_calls || d.prompt_tokens)
                .map((d) => (
                  <tr key={d.day}>
                    <td>{d.day}</td>
                    <td class="num">{count(d.steps)}</td>
                    <td class="num">{count(d.retrieve_calls)}</td>
                    <td class="num">{count(d.prompt_tokens + d.completion_tokens)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
