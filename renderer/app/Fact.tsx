// One row of a facts list (`<dl className="facts">`): a label and its value,
// as the detail panel and the engine settings show them.
import type { ReactElement, ReactNode } from 'react';

export function Fact({ label, children }: { label: string; children: ReactNode }): ReactElement {
  return (
    <div className="facts__row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
