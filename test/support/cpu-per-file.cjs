// Set up after the environment of every test file (jest.config.js setupFilesAfterEnv): records the
// CPU time the file cost, its worker's own and that of the child processes it waited for (the CLI
// and server processes most suites start), in a log the slowest-files reporter reads at the end.
// Unlike wall time, CPU time is hardly changed by other work on the machine, so it shows which
// suites are expensive even on a busy machine.
/* global afterAll, expect -- jest's globals: this file runs inside every test file's environment */
const { appendFileSync, readFileSync } = require('node:fs');

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** utime + stime + cutime + cstime of this process, in ms (fields 14-17 of /proc/self/stat). */
function cpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined; // not Linux: no figure
  }
}

const log = process.env.ANNOT_JEST_CPU_LOG;
const started = cpuMs();
if (log && started !== undefined) {
  afterAll(() => {
    const ended = cpuMs();
    appendFileSync(log, `${JSON.stringify({ file: expect.getState().testPath, cpuMs: ended - started })}\n`);
  });
}
