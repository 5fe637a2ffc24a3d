// A chart's figures as a table for screen readers: the SVG beside it is hidden from them.
import type { ReactElement } from 'react';

/** `labelLang`: the row labels' own language (detection names are ClamAV's words). */
export function ChartTable({ caption, head, rows, labelLang }: { caption: string; head: readonly [string, string]; rows: ReadonlyArray<readonly [string, string]>; labelLang?: string }): ReactElement {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head[0]}</th>
          <th scope="col">{head[1]}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row" lang={labelLang}>
              {label}
            </th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
