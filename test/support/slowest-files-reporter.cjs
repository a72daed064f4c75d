// Prints the ten test files that took longest after every run: the wall time of the file in its
// worker (jest's perfStats), and the CPU time it cost, its worker's and its child processes'
// (recorded by test/support/cpu-per-file.cjs). Wall time under load is noisy and CPU time is
// not, so the files are ranked by CPU time when it is known.
const { existsSync, mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const path = require('node:path');

const SHOWN = 10;

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    // Set before jest starts its workers, which inherit it; a nested jest keeps the outer log.
    if (!process.env.ANNOT_JEST_CPU_LOG) {
      this.logDir = mkdtempSync(path.join(tmpdir(), 'annot-jest-cpu-'));
      process.env.ANNOT_JEST_CPU_LOG = path.join(this.logDir, 'cpu.jsonl');
      process.env.ANNOT_JEST_HANDLES_LOG = path.join(this.logDir, 'handles.jsonl');
    }
  }

  cpuByFile() {
    const log = process.env.ANNOT_JEST_CPU_LOG;
    const cpu = new Map();
    if (!log || !existsSync(log)) return cpu;
    for (const line of readFileSync(log, 'utf8').split('\n').filter(Boolean)) {
      const { file, cpuMs } = JSON.parse(line);
      cpu.set(file, (cpu.get(file) ?? 0) + cpuMs);
    }
    return cpu;
  }

  /** Files that left timers, sockets or processes open for the next file in their worker. */
  leftOpen() {
    const log = process.env.ANNOT_JEST_HANDLES_LOG;
    if (!log || !existsSync(log)) return [];
    return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  }

  onRunComplete(_contexts, results) {
    const cpu = this.cpuByFile();
    const leaks = this.leftOpen();
    if (this.logDir) rmSync(this.logDir, { recursive: true, force: true });
    if (leaks.length > 0) {
      const lines = leaks.map(({ file, left }) => `  ${path.relative(this.rootDir, file)}: ${Object.entries(left).map(([type, n]) => `${n} ${type}`).join(', ')}`);
      process.stdout.write(`\ntest files that left handles open for the next file in their worker (a leak makes jest force its workers to exit):\n${lines.join('\n')}\n`);
    }
    const files = results.testResults
      .map((file) => ({ path: file.testFilePath, wallMs: file.perfStats.end - file.perfStats.start, cpuMs: cpu.get(file.testFilePath) }))
      .filter((entry) => Number.isFinite(entry.wallMs));
    if (files.length === 0) return;
    const byCpu = files.every((entry) => entry.cpuMs !== undefined);
    files.sort((a, b) => (byCpu ? b.cpuMs - a.cpuMs : b.wallMs - a.wallMs));
    const seconds = (ms) => (ms === undefined ? '     ?' : (ms / 1000).toFixed(1).padStart(6));
    const lines = files.slice(0, SHOWN).map((entry) => `${seconds(entry.cpuMs)} s CPU ${seconds(entry.wallMs)} s wall  ${path.relative(this.rootDir, entry.path)}`);
    const totalCpu = files.reduce((sum, entry) => sum + (entry.cpuMs ?? 0), 0);
    process.stdout.write(
      `\nslowest ${lines.length} of ${files.length} test files, by ${byCpu ? 'CPU' : 'wall'} time (CPU: the worker's and its child processes'; ${seconds(totalCpu).trim()} s CPU in all files):\n${lines.join('\n')}\n`,
    );
  }
}
module.exports = SlowestFilesReporter;
