// Every fuzz target, in the order `npm run fuzz` runs them.
import { asTarget, type FuzzTarget } from '../harness/target.ts';
import { socketTarget } from '../socket/socket-target.ts';
import { attributesTarget } from './attributes.ts';
import { appCliTarget, serviceCliTarget } from './cli-args.ts';
import { clamdConnectionTarget } from './clamd-connection.ts';
import { clamdReplyTarget } from './clamd-reply.ts';
import { clamdSessionReplyTarget } from './clamd-session-reply.ts';
import { historyQueryTarget } from './history-query.ts';
import { multipartTarget } from './multipart.ts';
import { multipartReceiverTarget } from './multipart-receiver.ts';
import { quarantineRowTarget } from './quarantine-row.ts';
import { quarantineStoreTarget } from './quarantine-store.ts';
import { routerTarget } from './router.ts';
import { scanTreeTarget } from './scan-tree.ts';
import { settingsFileTarget, settingsTextTarget } from './settings-file.ts';
import { watchStateTarget, watchStateTextTarget } from './watch-state-file.ts';
import { webhookSecretTarget } from './webhook-secret.ts';

/** The targets the shared smoke test runs, a few seconds each (test/electron/fuzz/fuzz-smoke.test.ts). */
export const TARGETS: FuzzTarget[] = [
  asTarget(attributesTarget),
  asTarget(routerTarget),
  asTarget(clamdReplyTarget),
  asTarget(clamdSessionReplyTarget),
  asTarget(clamdConnectionTarget),
  asTarget(webhookSecretTarget),
  asTarget(settingsTextTarget),
  asTarget(settingsFileTarget),
  asTarget(watchStateTextTarget),
  asTarget(watchStateTarget),
  asTarget(quarantineRowTarget),
  asTarget(quarantineStoreTarget),
  asTarget(historyQueryTarget),
  asTarget(serviceCliTarget),
  asTarget(appCliTarget),
  asTarget(multipartReceiverTarget),
  asTarget(multipartTarget),
  asTarget(socketTarget),
];

/** Targets whose every input costs seconds (the CLI on a real tree): each has a smoke test of its own. */
export const SLOW_TARGETS: FuzzTarget[] = [asTarget(scanTreeTarget)];

export const ALL_TARGETS: FuzzTarget[] = [...TARGETS, ...SLOW_TARGETS];
