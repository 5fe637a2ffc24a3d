// Every fuzz target, in the order `npm run fuzz` runs them.
import { asTarget, type FuzzTarget } from '../harness/target.ts';
import { socketTarget } from '../socket/socket-target.ts';
import { attributesTarget } from './attributes.ts';
import { appCliTarget, serviceCliTarget } from './cli-args.ts';
import { clamdConnectionTarget } from './clamd-connection.ts';
import { clamdReplyTarget } from './clamd-reply.ts';
import { historyQueryTarget } from './history-query.ts';
import { multipartTarget } from './multipart.ts';
import { quarantineStoreTarget } from './quarantine-store.ts';
import { routerTarget } from './router.ts';
import { settingsFileTarget } from './settings-file.ts';
import { watchStateTarget } from './watch-state-file.ts';
import { webhookSecretTarget } from './webhook-secret.ts';

export const TARGETS: FuzzTarget[] = [
  asTarget(attributesTarget),
  asTarget(routerTarget),
  asTarget(clamdReplyTarget),
  asTarget(clamdConnectionTarget),
  asTarget(webhookSecretTarget),
  asTarget(settingsFileTarget),
  asTarget(watchStateTarget),
  asTarget(quarantineStoreTarget),
  asTarget(historyQueryTarget),
  asTarget(serviceCliTarget),
  asTarget(appCliTarget),
  asTarget(multipartTarget),
  asTarget(socketTarget),
];
