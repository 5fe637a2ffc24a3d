// The core's backend capability: the keychain that holds the remote service's
// key, and the backend manager that runs the service (embedded or remote) each
// file goes to.
import type { KeyStatus } from '../../shared/bridge/api.ts';
import type { Language } from '../../shared/service-contract/limits.ts';
import type { Settings } from '../../shared/settings/settings.ts';
import { createBackendManager, type BackendManager } from '../backend/backend.ts';
import { embeddedServiceStarter, type LocalServiceHandle, type LocalServiceStarter } from '../backend/local-backend.ts';
import { accountForBaseUrl, createKeychain, DEFAULT_KEYCHAIN_ACCOUNT, DEFAULT_KEYCHAIN_SERVICE, type Keychain } from '../keychain/keychain.ts';
import type { CoreContext } from './core-context.ts';
import { systemLanguage } from './system-language.ts';
import { resolveClamdChoice } from '../../shared/engine/clamd-choice.ts';

export interface CoreKeys {
  keychain: Keychain;
  /** The keychain account of the remote service in use (read per call: the settings may change). */
  account(): string;
  status(): Promise<KeyStatus>;
}

export function setupKeys(ctx: CoreContext): CoreKeys {
  const { settings } = ctx;
  // keytar loads on first use: a missing keychain shows up as a Result error, never at start.
  const keychain = createKeychain({ service: ctx.options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE });
  /** Each remote service has its own key, under its origin; with no remote service set up, the default account. */
  const account = () => {
    const remoteUrl = remoteServiceUrl(settings.get());
    return remoteUrl ? accountForBaseUrl(remoteUrl) : DEFAULT_KEYCHAIN_ACCOUNT;
  };
  return { keychain, account, status: () => keychain.status(account()) };
}

/** `onLocalService`: told of the embedded service (its engine reports), each time it starts. */
export async function setupBackend(ctx: CoreContext, keys: CoreKeys, onLocalService?: (service: LocalServiceHandle | null) => void): Promise<BackendManager> {
  const { settings, options, tuning, log } = ctx;
  const { clamavDb, ownClamd, clamd, ...localService } = options.localService ?? {};
  // Built at each start: the database folder setting is taken when the service starts.
  const startEmbedded: LocalServiceStarter = (input) => {
    const databaseDir = clamavDb ?? settings.get().clamavDatabaseDir ?? undefined;
    // Which clamd: `--clamd` of this run, else the settings' choice, taken at each start.
    const choice = clamd !== undefined ? { kind: 'address' as const, address: clamd } : resolveClamdChoice(settings.get().clamd);
    return embeddedServiceStarter({
      ...localService,
      clamd: choice,
      // Verdict's own clamd lives in the app's data directory (one per data directory), not the service's.
      ...(ownClamd === false
        ? {}
        : {
            ownClamd: {
              dataDir: ctx.dataDir,
              ...(databaseDir !== undefined ? { databaseDir } : {}),
              detection: settings.get().detection,
              ...(tuning.engine?.ownClamdPath !== undefined ? { clamdPath: tuning.engine.ownClamdPath } : {}),
            },
          }),
      engineTuning: {
        ...tuning.engine?.live,
        ...(tuning.engine?.systemConfigPath ? { systemConfigPath: tuning.engine.systemConfigPath } : {}),
        // The setting is taken at each start; "Start ClamAV" starts it anyway for this run.
        ...(settings.get().startOwnClamd ? {} : { startOwnAtStart: false }),
      },
      logger: log.child({ component: 'local-service' }),
    })(input);
  };
  let keychainError: string | null = null;
  const language = (): Language => {
    const chosen = settings.get().language;
    return chosen === 'system' ? systemLanguage() : chosen;
  };
  const backend = createBackendManager({
    dataDir: ctx.dataDir,
    backend: () => settings.get().backend,
    remoteBaseUrl: () => settings.get().remoteBaseUrl,
    extraTargets: () => new Set(settings.get().watchedFolders.map((folder) => folder.backend).filter((target) => target !== 'default')),
    language,
    keys: {
      async getKey() {
        const key = await keys.keychain.getKey(keys.account());
        keychainError = key.ok ? null : key.error.message;
        return key.ok ? key.value : null;
      },
    },
    keychainError: () => keychainError,
    override: options.serviceOverride,
    // The service's warnings and errors cross its thread as plain messages and are scrubbed by this logger.
    startLocal: async (input) => {
      try {
        const handle = await startEmbedded(input);
        onLocalService?.(handle);
        return handle;
      } catch (error) {
        onLocalService?.(null);
        throw error;
      }
    },
    onSecret: (secret) => ctx.secrets.add(secret),
    budget: tuning.budget,
    retry: tuning.clientRetry,
    timeouts: tuning.timeouts,
    poll: tuning.poll,
    log: ctx.stepLog,
  });
  ctx.onClose(() => backend.close());
  await backend.refresh();
  return backend;
}

/** The remote service in use or set up: the default backend's, else the one kept for folders set to `remote`. */
function remoteServiceUrl(settings: Settings): string | null {
  return settings.backend.kind === 'remote' ? settings.backend.baseUrl : settings.remoteBaseUrl;
}
