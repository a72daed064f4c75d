/**
 * Progress for long conversions: a live counter on a terminal (stderr), nothing at all when
 * stderr is piped, so logs stay clean. cli-progress loads only when a terminal will show it.
 */
export interface CountProgress {
  update(count: number): void;
  stop(): void;
}

const SILENT: CountProgress = { update: () => {}, stop: () => {} };

export function conversionProgress(label = 'annotations'): CountProgress {
  if (!process.stderr.isTTY) return SILENT;
  let bar: { start(total: number, value: number): void; update(value: number): void; stop(): void } | null = null;
  let pending: Promise<void> | null = null;
  const threshold = 50000; // small files finish before a bar would help
  return {
    update(count) {
      if (count < threshold) return;
      if (!bar && !pending) {
        pending = import('cli-progress').then((module) => {
          const { SingleBar } = module.default;
          bar = new SingleBar({ format: `{value} ${label} read`, stream: process.stderr, hideCursor: true }) as unknown as typeof bar;
          bar!.start(0, count);
          // An interrupted run exits from its signal handler (process-guards.ts): the terminal gets its cursor back.
          process.once('exit', () => bar?.stop());
        });
        return;
      }
      bar?.update(count);
    },
    stop() {
      bar?.stop();
    },
  };
}
