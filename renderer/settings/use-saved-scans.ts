// The saved scans as Settings shows them: read once when Settings opens, then replaced by
// each change the Saved scans card makes; shared with Scheduled scans' "Next scan" line.
import { useEffect, useState } from 'react';
import type { SavedScan } from '../../shared/saved-scans/saved-scan.ts';
import { api, call } from '../bridge/api.ts';

export function useSavedScans(): [SavedScan[], (scans: SavedScan[]) => void] {
  const [scans, setScans] = useState<SavedScan[]>([]);
  useEffect(() => {
    let live = true;
    void call(api.savedScans.list()).then((value) => live && value && setScans(value));
    return () => {
      live = false;
    };
  }, []);
  return [scans, setScans];
}
