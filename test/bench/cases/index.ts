// Every benchmark case, in the order of the table (the issues' order: large files came with issue 15;
// the realistic database and the home tree with issue 26).
import type { BenchCase } from './bench-case.ts';
import { cliMemoryCase } from './cli-memory.ts';
import { clientMemoryCase } from './client-memory.ts';
import { fingerprintCase } from './fingerprint.ts';
import { historyCase } from './history.ts';
import { homeTreeCase } from './home-tree.ts';
import { largeFilesCase, largeFilesCaseOn } from './large-files.ts';
import { jobHistoryCase } from './job-history.ts';
import { pollingCase } from './polling.ts';
import { recheckCase } from './recheck.ts';
import { rendererCase } from './renderer.ts';
import { serviceMemoryCase } from './service-memory.ts';
import { throughputCase, throughputCaseOn } from './throughput.ts';
import { uploadCase } from './upload.ts';
import { watchIdleCase } from './watch-idle.ts';
import { watchLatencyCase } from './watch-latency.ts';
import { windowDuringJobCase } from './window-during-job.ts';

export const BENCH_CASES: readonly BenchCase[] = [uploadCase, clientMemoryCase, serviceMemoryCase, fingerprintCase, throughputCase, pollingCase, watchLatencyCase, watchIdleCase, historyCase, rendererCase, largeFilesCase, jobHistoryCase, throughputCaseOn('realistic'), largeFilesCaseOn('realistic'), homeTreeCase, cliMemoryCase, windowDuringJobCase, recheckCase];
