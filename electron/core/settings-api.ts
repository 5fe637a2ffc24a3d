// The core's settings API: settings, the remote service's key, the connection
// test, and what start-up found.
import type { CoreApi, StartupWarning } from '../../shared/bridge/api.ts';
import { err, ok } from '../../shared/result.ts';
import { settingsPatchSchema } from '../../shared/settings/settings.ts';
import { z } from 'zod';
import type { BackendManager } from '../backend/backend.ts';
import { testConnection } from '../backend/test-connection.ts';
import type { ScanPipeline } from '../scans/pipeline.ts';
import { makeProbeReference } from '../scans/reference.ts';
import type { CoreContext, Guard } from './core-context.ts';
import type { CoreKeys } from './setup-backend.ts';
import { systemLanguage } from './system-language.ts';

export function settingsApi(
  ctx: CoreContext,
  input: { guard: Guard; keys: CoreKeys; backend: BackendManager; scans: ScanPipeline; installId: string; startupWarnings: readonly StartupWarning[] },
): CoreApi['settings'] {
  const { settings, secrets } = ctx;
  const { guard, keys, backend, scans } = input;
  return {
    get: () => guard('Reading settings', () => ok(settings.get())),
    update: (patch) =>
      guard('Saving settings', async () => {
        const parsed = settingsPatchSchema.safeParse(patch);
        if (!parsed.success) return err('invalid_settings', `These settings are not valid: ${z.prettifyError(parsed.error)}`);
        const change = parsed.data;
        // The remote service chosen as the default is also the one folders set to `remote` use.
        if (change.backend?.kind === 'remote' && change.remoteBaseUrl === undefined) change.remoteBaseUrl = change.backend.baseUrl;
        return settings.update(change);
      }),
    keyStatus: () => guard('Reading the key status', async () => ok(await keys.status())),
    setApiKey: (key) =>
      guard('Saving the API key', async () => {
        if (typeof key !== 'string') return err('invalid_api_key', 'The API key must be text.');
        secrets.add(key.trim());
        const stored = await keys.keychain.setKey(key, keys.account());
        if (!stored.ok) return stored;
        await backend.reloadKey();
        scans.resume();
        return stored;
      }),
    clearApiKey: () =>
      guard('Removing the API key', async () => {
        const deleted = await keys.keychain.deleteKey(keys.account());
        if (!deleted.ok) return deleted;
        await backend.reloadKey();
        return deleted;
      }),
    testConnection: () =>
      guard('Testing the connection', async () => {
        const client = backend.client();
        if (!client) {
          const availability = backend.availability();
          const problem = !availability.ok && availability.reason === 'awaiting_api_key' ? 'no_key' : 'unreachable';
          return ok({ reachable: false, authorized: false, latencyMs: null, message: availability.ok ? 'No service.' : availability.message, problem });
        }
        const report = await testConnection(client, makeProbeReference(input.installId));
        // The key works (again): a queue that waited for one goes on.
        if (report.authorized) scans.resume();
        return ok(report);
      }),
    systemLanguage: () => guard('Reading the system language', () => ok(systemLanguage())),
    startupWarnings: async () => ok(structuredClone([...input.startupWarnings])),
  };
}
