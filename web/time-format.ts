// The times the page shows: seconds (12.345 s) or a timecode (00:00:12.345), as on every other surface.

export type TimeFormat = 'seconds' | 'timecode';

export function formatTime(seconds: number, format: TimeFormat, precision = 3): string {
  if (format === 'seconds') return `${trim(seconds.toFixed(precision))} s`;
  const sign = seconds < 0 ? '-' : '';
  const total = Math.abs(seconds);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const rest = total - hours * 3600 - minutes * 60;
  const secs = rest.toFixed(precision).padStart(precision > 0 ? precision + 3 : 2, '0');
  return `${sign}${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${secs}`;
}

function trim(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/0+$/, '').replace(/\.$/, '') : fixed;
}

/** Tick spacing of the axis: the smallest "nice" step at least `minPx` apart at this zoom. */
export function tickStep(pxPerSecond: number, minPx = 90): number {
  const steps = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 18000, 36000, 86400];
  for (const step of steps) if (step * pxPerSecond >= minPx) return step;
  return steps[steps.length - 1];
}

/** Decimal places a tick label needs at a step. */
export function precisionFor(step: number): number {
  return step >= 1 ? 0 : step >= 0.1 ? 1 : step >= 0.01 ? 2 : 3;
}
