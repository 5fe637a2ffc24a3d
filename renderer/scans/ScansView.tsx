// The main view: drop zone, filters, the list and the selected scan's details.
import type { ReactElement } from 'react';
import { DetailPanel } from '../detail/DetailPanel.tsx';
import { useVerdict } from '../store/use-verdict.ts';
import { DropZone } from './DropZone.tsx';
import { FilterBar } from './FilterBar.tsx';
import { ScanList } from './ScanList.tsx';
import type { ScanFeed } from './scan-feed.ts';

export function ScansView({ feed }: { feed: ScanFeed }): ReactElement {
  const hasSelection = useVerdict((state) => state.selectedId !== null);
  return (
    <div className={`scans${hasSelection ? ' scans--with-detail' : ''}`}>
      <div className="scans__main">
        <DropZone />
        <FilterBar />
        <ScanList feed={feed} />
      </div>
      <DetailPanel />
    </div>
  );
}
