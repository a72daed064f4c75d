// Set up after the environment of every test file (jest.config.js setupFilesAfterEnv): when a test
// file starts, notes the resources keeping its worker alive (timers, sockets, servers, child
// processes) beyond those the worker had before its first file, and blames them on the file that
// ran before in that worker. A file that leaves one open makes jest force its worker to exit at
// the end ("A worker process has failed to exit gracefully"); the slowest-files reporter names
// such files, so the leak is found without a slow --detectOpenHandles run.
/* global expect, beforeAll -- jest's globals: this file runs inside every test file's environment */
const { appendFileSync } = require('node:fs');

// Kept on a core module's object: each test file gets its own `process` and globals, but core
// modules are the worker's own, shared by every file it runs.
const KEY = Symbol.for('annot.test.handlesPerFile');
const shared = require('node:async_hooks');

/** The resource type a standard stream's handle is counted as, by the handle's class. */
const STDIO_TYPES = { Pipe: 'PipeWrap', TTY: 'TTYWrap' };

/** Counts of the resource types keeping the event loop alive, e.g. { Timeout: 2, TCPSocketWrap: 1 }. */
function activeResources() {
  const counts = {};
  for (const type of process.getActiveResourcesInfo()) counts[type] = (counts[type] ?? 0) + 1;
  // The worker's own standard streams, made the first time a file touches process.stdin (say), are no file's to close.
  for (const handle of process._getActiveHandles()) {
    const type = STDIO_TYPES[handle?._handle?.constructor?.name];
    if (type !== undefined && [0, 1, 2].includes(handle._handle.fd) && counts[type] > 0) counts[type]--;
  }
  return counts;
}

/** What `now` holds beyond `baseline`, by type; FSReqCallback and the like are operations in flight, not handles left open. */
function extras(now, baseline) {
  const left = {};
  for (const [type, count] of Object.entries(now)) {
    const extra = count - (baseline[type] ?? 0);
    if (extra > 0 && !/^FS|Promise|Immediate/.test(type)) left[type] = extra;
  }
  return left;
}

/** Per type, the fewer of the two counts. */
function fewer(a, b) {
  const out = {};
  for (const [type, count] of Object.entries(a)) if (b[type] !== undefined) out[type] = Math.min(count, b[type]);
  return out;
}

const log = process.env.ANNOT_JEST_HANDLES_LOG;
const now = activeResources();
const state = shared[KEY] ?? (shared[KEY] = { baseline: now, previous: undefined });
const baseline = state.baseline;
const previous = state.previous;
// What is open now is blamed on no later file: a leak is named once, on the file that left it.
state.baseline = now;
state.previous = expect.getState().testPath;
const suspects = log && previous !== undefined ? extras(now, baseline) : {};
if (Object.keys(suspects).length > 0) {
  // A socket or pipe the previous file closed may still be closing when this file starts (a child
  // process that has not exited yet, on a busy machine): give what it left until a deadline to go
  // before naming it. Only what was there at the start is counted (this file's own handles come
  // later), and what went is no longer in the baseline.
  beforeAll(async () => {
    const deadline = Date.now() + 10_000;
    let left = suspects;
    while (Object.keys(left).length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      left = fewer(left, extras(activeResources(), baseline));
    }
    state.baseline = fewer(now, activeResources());
    if (Object.keys(left).length > 0) appendFileSync(log, `${JSON.stringify({ file: previous, left })}\n`);
  });
}
