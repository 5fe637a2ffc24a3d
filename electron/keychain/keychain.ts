// The API key in the OS keychain (keytar: Secret Service on Linux, Keychain on
// macOS, Credential Manager on Windows), under one service name. keytar is
// loaded on first use, so a missing native module or keychain never breaks
// startup; without a keychain the key is refused, never written in plain text.
import { createRequire } from 'node:module';
import type { KeyStatus } from '../../shared/bridge/api.ts';
import { err, ok, type Result } from '../../shared/result.ts';
import { maskApiKey, validateApiKey } from './api-key.ts';

export const DEFAULT_KEYCHAIN_SERVICE = 'Verdict';
export const DEFAULT_KEYCHAIN_ACCOUNT = 'api-key';

/** The part of keytar this module uses (also what a test may substitute). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

export interface KeychainOptions {
  /** Keychain service name (default `Verdict`; tests use their own). */
  service?: string;
  /** Account used when a call names none (default `api-key`). */
  account?: string;
  /** How long one keychain call may take, e.g. while the OS asks the user to unlock it (default 60 s). */
  timeoutMs?: number;
  /** Loads keytar (default: `require` of the `keytar` package). */
  loadKeytar?: () => Promise<KeytarLike>;
}

export interface Keychain {
  readonly service: string;
  /** The stored key, or null when none is set. Error code `keychain_unavailable`. */
  getKey(account?: string): Promise<Result<string | null>>;
  /** Validates (see validateApiKey) and stores the key, replacing any earlier one. */
  setKey(key: string, account?: string): Promise<Result<KeyStatus>>;
  /** Removes the key; succeeds when there was none. */
  deleteKey(account?: string): Promise<Result<KeyStatus>>;
  /** Whether a key is set, masked; `keychainError` says why the keychain cannot be used. Never throws. */
  status(account?: string): Promise<KeyStatus>;
}

/** The keychain account for a remote service: its origin, so each service has its own key. */
export function accountForBaseUrl(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

export function createKeychain(options: KeychainOptions = {}): Keychain {
  const service = options.service ?? DEFAULT_KEYCHAIN_SERVICE;
  const defaultAccount = options.account ?? DEFAULT_KEYCHAIN_ACCOUNT;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const load = options.loadKeytar ?? loadKeytarModule;
  let keytar: Promise<KeytarLike> | null = null;

  /** Runs one keychain call; any failure becomes a `keychain_unavailable` result without the key in it. */
  const call = async <T>(run: (backend: KeytarLike) => Promise<T>, secret?: string): Promise<Result<T>> => {
    let backend: KeytarLike;
    try {
      keytar ??= load();
      backend = await keytar;
    } catch (error) {
      return err('keychain_unavailable', `The keychain module (keytar) could not be loaded: ${detail(error, secret)}. ${installHint()}`);
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s; it may be locked`)), timeoutMs);
      });
      return ok(await Promise.race([run(backend), timeout]));
    } catch (error) {
      return err('keychain_unavailable', `${unavailableMessage()} (${detail(error, secret)})`);
    } finally {
      clearTimeout(timer);
    }
  };

  const statusOf = (key: string | null): KeyStatus => ({ isSet: key !== null, masked: key === null ? null : maskApiKey(key), keychainError: null });

  return {
    service,
    getKey: (account = defaultAccount) => call((k) => k.getPassword(service, account)),
    async setKey(input, account = defaultAccount) {
      const valid = validateApiKey(input);
      if (!valid.ok) return valid;
      const stored = await call((k) => k.setPassword(service, account, valid.value), valid.value);
      return stored.ok ? ok(statusOf(valid.value)) : stored;
    },
    async deleteKey(account = defaultAccount) {
      const deleted = await call((k) => k.deletePassword(service, account));
      return deleted.ok ? ok(statusOf(null)) : deleted;
    },
    async status(account = defaultAccount) {
      const key = await call((k) => k.getPassword(service, account));
      if (!key.ok) return { isSet: false, masked: null, keychainError: key.error.message };
      return statusOf(key.value);
    },
  };
}

// CommonJS `require`, not `import()`: keytar is the one package the bundles leave to
// node_modules (it is native), and CommonJS resolution from inside app.asar is the path
// Electron keeps working; its ESM resolution of bare names there broke twice (#41241, #45896).
async function loadKeytarModule(): Promise<KeytarLike> {
  return createRequire(import.meta.url)('keytar') as KeytarLike;
}

function unavailableMessage(): string {
  if (process.platform === 'darwin') return 'The macOS Keychain could not be used';
  if (process.platform === 'win32') return 'The Windows Credential Manager could not be used';
  return 'No OS keychain available: install and unlock GNOME Keyring or KWallet (Secret Service), then try again';
}

function installHint(): string {
  return process.platform === 'linux' ? 'The key can be stored once a Secret Service (GNOME Keyring or KWallet) and libsecret are installed.' : 'Reinstall Verdict.';
}

/** The underlying error, one line, short, and scrubbed of the key just in case. */
function detail(error: unknown, secret?: string): string {
  let text = error instanceof Error ? error.message : String(error);
  if (secret) text = text.replaceAll(secret, '[key]');
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text || 'unknown error';
}
