// Prints the ten test files that took longest (wall time of the file in its worker, from jest's
// perfStats) after every run, so the suites that dominate `npm test` are visible without digging.
// Wall time under load is noisy; the ranking is what matters, not the figures.
const path = require('node:path');

const SHOWN = 10;

class SlowestFilesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({ file: path.relative(this.rootDir, file.testFilePath), ms: file.perfStats.end - file.perfStats.start }))
      .filter((entry) => Number.isFinite(entry.ms))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN);
    if (files.length === 0) return;
    const lines = files.map((entry) => `${(entry.ms / 1000).toFixed(1).padStart(7)} s  ${entry.file}`);
    process.stdout.write(`\nslowest ${files.length} test files (wall time in their worker):\n${lines.join('\n')}\n`);
  }
}
module.exports = SlowestFilesReporter;
