// The core's watch API: watched folders are settings; the watcher follows them (setup-watching.ts).
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { watchedFolderInputSchema, watchedFolderPatchSchema, type CoreApi } from '../../shared/bridge/api.ts';
import { err, ok } from '../../shared/result.ts';
import type { WatchedFolder } from '../../shared/settings/settings.ts';
import type { CoreContext, Guard } from './core-context.ts';
import type { Watching } from './setup-watching.ts';

export function watchApi(ctx: CoreContext, guard: Guard, watch: Watching): CoreApi['watch'] {
  const { settings } = ctx;
  return {
    list: () => guard('Listing watched folders', () => ok(watch.statuses())),
    add: (input) =>
      guard('Adding a watched folder', async () => {
        const parsed = watchedFolderInputSchema.safeParse(input);
        if (!parsed.success) return err('invalid_request', 'The folder settings are not valid.');
        const path = resolve(parsed.data.path);
        const current = settings.get().watchedFolders;
        if (current.some((folder) => resolve(folder.path) === path)) return err('already_watched', 'This folder is watched already.');
        const folder: WatchedFolder = {
          id: randomUUID(),
          path,
          recursive: parsed.data.recursive ?? true,
          ignore: parsed.data.ignore ?? [],
          paused: parsed.data.paused ?? false,
          scanExisting: parsed.data.scanExisting ?? false,
          threatAction: parsed.data.threatAction,
          exclusions: parsed.data.exclusions,
          maxAutoScanSize: parsed.data.maxAutoScanSize,
          backend: parsed.data.backend,
        };
        const saved = await settings.update({ watchedFolders: [...current, folder] });
        return saved.ok ? ok(watch.statuses()) : saved;
      }),
    update: (id, patch) =>
      guard('Changing a watched folder', async () => {
        const parsed = watchedFolderPatchSchema.safeParse(patch);
        if (!parsed.success) return err('invalid_request', 'The folder settings are not valid.');
        const change = parsed.data;
        const current = settings.get().watchedFolders;
        if (!current.some((folder) => folder.id === id)) return err('not_found', 'There is no watched folder with this id.');
        const saved = await settings.update({ watchedFolders: current.map((folder) => (folder.id === id ? { ...folder, ...change } : folder)) });
        return saved.ok ? ok(watch.statuses()) : saved;
      }),
    remove: (id) =>
      guard('Removing a watched folder', async () => {
        const current = settings.get().watchedFolders;
        if (!current.some((folder) => folder.id === id)) return err('not_found', 'There is no watched folder with this id.');
        const saved = await settings.update({ watchedFolders: current.filter((folder) => folder.id !== id) });
        return saved.ok ? ok(watch.statuses()) : saved;
      }),
    setAllPaused: (paused) =>
      guard('Pausing watched folders', async () => {
        const saved = await settings.update({ watchingPaused: paused === true });
        return saved.ok ? ok(watch.statuses()) : saved;
      }),
    onChange: (listener) => watch.onChange(listener),
  };
}
