// Set up after the environment of every test file (jest.config.js setupFilesAfterEnv): when a test
// file starts, notes the resources keeping its worker alive (timers, sockets, servers, child
// processes) beyond those the worker had before its first file, and blames them on the file that
// ran before in that worker. A file that leaves one open makes jest force its worker to exit at
// the end ("A worker process has failed to exit gracefully"); the slowest-files reporter names
// such files, so the leak is found without a slow --detectOpenHandles run.
/* global expect -- jest's globals: this file runs inside every test file's environment */
const { appendFileSync } = require('node:fs');

// Kept on a core module's object: each test file gets its own `process` and globals, but core
// modules are the worker's own, shared by every file it runs.
const KEY = Symbol.for('annot.test.handlesPerFile');
const shared = require('node:async_hooks');

/** Counts of the resource types keeping the event loop alive, e.g. { Timeout: 2, TCPSocketWrap: 1 }. */
function activeResources() {
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

const log = process.env.ANNOT_JEST_HANDLES_LOG;
const now = activeResources();
const state = shared[KEY] ?? (shared[KEY] = { baseline: now, previous: undefined });
if (log && state.previous !== undefined) {
  // FSReqCallback and the like are operations in flight, not handles left open.
  const left = Object.entries(now)
    .filter(([type]) => !/^FS|Promise|Immediate/.test(type))
    .map(([type, count]) => [type, count - (state.baseline[type] ?? 0)])
    .filter(([, extra]) => extra > 0);
  if (left.length > 0) appendFileSync(log, `${JSON.stringify({ file: state.previous, left: Object.fromEntries(left) })}\n`);
}
// What is open now is blamed on no later file: a leak is named once, on the file that left it.
state.baseline = now;
state.previous = expect.getState().testPath;
