// The shapes the page exchanges with the server, taken from src (types only: no server code reaches the browser).
export type { AnnotationWire, TierWire } from '../src/model/wire.js';
export type { RationalTimeWire as Time } from '../src/time/rational-time.js';
export type { StreamedEntry } from '../src/server/routes/oplog-stream.js';
export type { ErrorBody } from '../src/server/errors.js';
export type { ErrorCode } from '../src/errors/error-table.js';
export type { TierViolation } from '../src/model/tier-constraint.js';
export type { PageConfig } from '../src/server/page/page-config.js';
