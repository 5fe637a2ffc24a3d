// A chart's figures as a table for screen readers: the SVG beside it is hidden from them.
import type { ReactElement } from 'react';

export function ChartTable({ caption, head, rows }: { caption: string; head: readonly [string, string]; rows: ReadonlyArray<readonly [string, string]> }): ReactElement {
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
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
