// A chart's figures as a table for screen readers: the SVG beside it is hidden from them.
import type { ReactElement } from 'react';

/** Each row: its label (a row header), then one cell per further column. `labelLang`: the row labels' own language (detection names are ClamAV's words). */
export function ChartTable({ caption, head, rows, labelLang }: { caption: string; head: readonly string[]; rows: ReadonlyArray<readonly string[]>; labelLang?: string }): ReactElement {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {head.map((name) => (
            <th key={name} scope="col">
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, ...values], i) => (
          <tr key={`${i}:${label ?? ''}`}>
            <th scope="row" lang={labelLang}>
              {label}
            </th>
            {values.map((value, j) => (
              <td key={j}>{value}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
