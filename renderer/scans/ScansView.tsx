// The main view: drop zone, filters, the list and the selected scan's details.
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
        <ProtectionLine />
        <BasicOnlyRescan />
        <DropZone />
        <ScanComputer />
        <JobList />
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
