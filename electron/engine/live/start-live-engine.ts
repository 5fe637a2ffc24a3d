// Starts the service's live engine: the first look, then the service may open.
// `--engine clamd` keeps its promise at start: with no clamd answering (and none
// loading) the service does not start, as before the engine was chosen live.
import { EngineError } from '../engine.ts';
import { LiveEngine, type LiveEngineOptions } from './live-engine.ts';

export { LiveEngine } from './live-engine.ts';

/** The live engine's knobs a service's options may carry (plain data: they cross the thread). */
export type LiveEngineTuning = Pick<LiveEngineOptions, 'recheckMs' | 'waitLimitMs' | 'systemConfigPath' | 'startOwnAtStart'>;

export async function startLiveEngine(options: LiveEngineOptions): Promise<LiveEngine> {
  const live = new LiveEngine(options);
  const state = await live.start();
  if (options.kind === 'clamd' && state.phase === 'missing') {
    const where = state.status.engine.where;
    const detail = state.status.reason.params.detail;
    await live.close();
    throw new EngineError('engine_unavailable', `no clamd answered PING at ${where}${detail === undefined ? '' : ` (${String(detail)})`}`);
  }
  return live;
}
