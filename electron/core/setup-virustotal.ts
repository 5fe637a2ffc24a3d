// The core's VirusTotal capability (electron/virustotal/): the key in the same
// keychain service as the scanning service's key, under an account of its own.
import type { CoreApi } from '../../shared/bridge/api.ts';
import { createKeychain, DEFAULT_KEYCHAIN_SERVICE } from '../keychain/keychain.ts';
import { createVirusTotal } from '../virustotal/virustotal.ts';
import type { CoreContext, Guard } from './core-context.ts';

export function setupVirusTotal(ctx: CoreContext, guard: Guard): CoreApi['virusTotal'] {
  const virusTotal = createVirusTotal({
    ...ctx.tuning.virusTotal,
    keychain: createKeychain({ service: ctx.options.keychainService ?? DEFAULT_KEYCHAIN_SERVICE }),
    onSecret: (key) => ctx.secrets.add(key),
    log: ctx.log,
  });
  ctx.onClose(() => virusTotal.close());
  return {
    lookup: (sha256) => guard('Looking up a file on VirusTotal', () => virusTotal.lookup(sha256)),
    keyStatus: () => guard('Reading the VirusTotal key status', () => virusTotal.keyStatus()),
    setKey: (key) => guard('Saving the VirusTotal key', () => virusTotal.setKey(key)),
    clearKey: () => guard('Removing the VirusTotal key', () => virusTotal.clearKey()),
  };
}
