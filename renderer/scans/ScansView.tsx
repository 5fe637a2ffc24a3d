// The main view: the status line, drop zone and scan jobs above the list, the
// filters, the list and the selected scan's details. The window itself never
// scrolls: the part above the list and a job's details scroll within themselves,
// and the list keeps at least a third of the window (app.css, --list-min).
import type { ReactElement } from 'react';
import { usePaintedOnce } from '../app/after-paint.ts';
import { DetailPanel } from '../detail/DetailPanel.tsx';
import { JobList } from '../jobs/JobList.tsx';
import { ScanComputer } from '../jobs/ScanComputer.tsx';
import { BasicOnlyRescan } from '../protection/BasicOnlyRescan.tsx';
import { ProtectionLine } from '../protection/ProtectionLine.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { DropZone } from './DropZone.tsx';
import { ExportControl } from './ExportControl.tsx';
import { FilterBar } from './FilterBar.tsx';
import { ScanList } from './ScanList.tsx';
import type { ScanFeed } from './scan-feed.ts';

export function ScansView({ feed }: { feed: ScanFeed }): ReactElement {
  const hasSelection = useVerdict((state) => state.selectedId !== null);
  // The list measures itself when it mounts: after the window's first paint, not inside it.
  const listShown = usePaintedOnce();
  return (
    <div className={`scans${hasSelection ? ' scans--with-detail' : ''}`}>
      <div className="scans__main">
        {/* Everything above the list scrolls within itself when it is taller than its share: the list keeps its room. */}
        <div className="scans__top" data-testid="scans-top">
          <ProtectionLine />
          <BasicOnlyRescan />
          <DropZone />
          <ScanComputer />
          <JobList />
        </div>
        <div className="scans__toolbar">
          <FilterBar />
          <ExportControl />
        </div>
        {listShown ? <ScanList feed={feed} /> : <section className="list" aria-busy="true" />}
      </div>
      <DetailPanel />
    </div>
  );
}
