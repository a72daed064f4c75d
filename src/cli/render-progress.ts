import type { RenderEvent } from '../render/events.js';
import { terminalBar } from './terminal-bar.js';

/**
 * The terminal display of a scene render: one cli-progress bar with units done of total, cache
 * hits, failures, elapsed and estimated time left, and the unit in progress with its model's
 * state (queued at position n, in progress, a log line). Drawn on stderr when it is a terminal,
 * else on stdout; cli-progress is loaded only when a display is shown.
 */
export interface RenderProgress {
  event(event: RenderEvent): void;
  finished(unit: { unit: 'shot' | 'beat'; id: string; cacheHit: boolean }): void;
  failed(count: number): void;
  stop(): void;
}

export async function renderProgress(total: number): Promise<RenderProgress> {
  const stream = process.stderr.isTTY ? process.stderr : process.stdout;
  const bar = await terminalBar(
    stream,
    '{bar} {value}/{total} units | {hits} cached | {failed} failed | {duration_formatted} elapsed | ETA {eta_formatted} | {current}',
    { etaBuffer: 20 },
  );
  let done = 0;
  let hits = 0;
  let failed = 0;
  const active = new Map<string, string>();
  let latest = '';
  const payload = () => {
    const others = active.size > 1 ? ` (+${active.size - 1} more)` : '';
    return { hits, failed, current: `${latest || (done < total ? 'starting' : 'done')}${others}`.slice(0, 80) };
  };
  bar.start(total, 0, payload());
  return {
    event(event) {
      if (!event.unit) return;
      const key = `${event.unit.kind} ${event.unit.id}`;
      const state = describe(event);
      if (!state) return;
      active.set(key, state);
      latest = `${key}: ${state}`;
      bar.update(done, payload());
    },
    finished({ unit, id, cacheHit }) {
      done++;
      if (cacheHit) hits++;
      active.delete(`${unit} ${id}`);
      if (latest.startsWith(`${unit} ${id}:`)) latest = [...active].map(([k, s]) => `${k}: ${s}`).pop() ?? '';
      bar.update(done, payload());
    },
    failed(count) {
      failed = count;
      bar.update(done, payload());
    },
    stop() {
      bar.stop();
    },
  };
}

function describe(event: RenderEvent): string | undefined {
  const model = event.model_id ? event.model_id.replace(/^fal-ai\//, '') : '';
  switch (event.type) {
    case 'queued':
      return `${model} queued${event.queue_position !== undefined ? ` (#${event.queue_position})` : ''}`;
    case 'progress':
      return `${model} ${event.queue_position !== undefined && event.message === 'IN_QUEUE' ? `in queue (#${event.queue_position})` : (event.message ?? 'running').toLowerCase().replace('_', ' ')}`;
    case 'log':
      return `${model} ${event.message ?? ''}`;
    case 'done':
      return `${model} done`;
    case 'error':
      return `${model} failed`;
    case 'cache_hit':
      return event.whole_unit ? 'cached' : `${model} cached`;
    default:
      return undefined;
  }
}
