/**
 * One cli-progress bar of done of total, as the batch conversion and the scene render draw it:
 * the same size, characters and refresh rate. cli-progress is loaded only when a bar is shown.
 */
export interface TerminalBar {
  start(total: number, value: number, payload: Record<string, unknown>): void;
  update(value: number, payload: Record<string, unknown>): void;
  /** Draws the bar again now (after a line was printed over it). */
  render(): void;
  stop(): void;
}

export async function terminalBar(stream: NodeJS.WriteStream, format: string, options: { etaBuffer?: number } = {}): Promise<TerminalBar> {
  const { default: cliProgress } = await import('cli-progress');
  return new cliProgress.SingleBar(
    { stream, format, barsize: 24, hideCursor: true, clearOnComplete: false, fps: 10, ...options },
    cliProgress.Presets.shades_classic,
  ) as unknown as TerminalBar;
}
