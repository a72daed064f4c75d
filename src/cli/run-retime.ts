import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InvalidInputError, UsageError } from '../errors/annot-error.js';
import { AnnotationService } from '../service/annotation-service.js';
import { isPostgresLocation, openServiceStore, redactLocation } from '../service/open-service-store.js';
import { retimeStore, type RetimeStoreResult } from '../service/retime-store.js';
import { retimeResultToWire } from '../service/retime-wire.js';
import { flagSpelling, type RetimeRequest } from '../time/retime.js';
import { parseTime } from '../time/time-input.js';
import { groupedDigits, plural } from './finding-output.js';
import type { FlagValues } from './flag-specs.js';
import { writeJson } from './output.js';
import type { RETIME_COMMAND_FLAGS } from './retime-command-flags.js';

type RetimeFlags = FlagValues<typeof RETIME_COMMAND_FLAGS>;

/** Who the op-log records as making a retime from the command line. */
export const RETIME_ACTOR = 'cli:retime';

/**
 * `annot retime FILE.annot …` (or `--store postgres://…`): the store retimed in place by the one
 * service function (retimeStore), as one op-log batch, so a running `annot serve` on it sees the
 * change live. What was done goes to stderr in one line; `--json` prints it on stdout too.
 */
export async function runRetime(file: string | undefined, flags: RetimeFlags): Promise<void> {
  const location = retimeLocation(file, flags.store, flags.project);
  const request = retimeRequestOf(flags);
  const name = redactLocation(location);
  if (!isPostgresLocation(location)) refuseOtherFormats(location);
  const store = await openServiceStore(location);
  try {
    const result = await retimeStore(new AnnotationService(store), request, {
      tier: flags.tier,
      strict: flags.strict,
      strictTime: flags['strict-time'],
      actor: RETIME_ACTOR,
      spell: flagSpelling,
      storeName: name,
    });
    process.stderr.write(`${summaryLine(result, name)}\n`);
    if (flags.json) writeJson({ file: name, ...retimeResultToWire(result) });
  } finally {
    await store.close();
  }
}

/** The flags as a RetimeRequest; `--within START,END` split into its two times. */
export function retimeRequestOf(flags: RetimeFlags): RetimeRequest {
  const parts: Record<string, unknown> = {
    shift: flags.shift,
    fps_from: flags['fps-from'],
    fps_to: flags['fps-to'],
    scale: flags.scale,
    sync: flags.sync,
    within: flags.within === undefined ? undefined : windowOf(flags.within, flags.fps),
    fps: flags.fps,
  };
  return Object.fromEntries(Object.entries(parts).filter(([, value]) => value !== undefined)) as RetimeRequest;
}

/** FILE or --store (never both, one of them), with --project set on the URL. */
function retimeLocation(file: string | undefined, store: string | undefined, project: string | undefined): string {
  if (file !== undefined && store !== undefined) throw new UsageError(`retime takes FILE or --store, not both (given ${redactLocation(file)} and --store)`);
  const location = store ?? file;
  if (location === undefined) throw new UsageError('retime needs FILE.annot or --store postgres://…?project=name (see annot retime --help)');
  if (project === undefined) return location;
  if (!isPostgresLocation(location)) throw new UsageError('--project names a project of a PostgreSQL --store; a .annot file is a project of its own');
  const url = new URL(location);
  const named = url.searchParams.get('project');
  if (named !== null && named !== project) throw new UsageError(`--project ${project}: the --store URL names project "${named}"; name one project`);
  url.searchParams.set('project', project);
  return url.toString();
}

/**
 * `--within 10,20` (or `'10 20'`). A timecode may hold a comma (`00:01:02,500`), so the comma
 * that splits is the one where both sides read as times.
 */
function windowOf(text: string, fps: string | undefined): [string, string] {
  const expected = `--within: expected START,END (for example 60,120 or 00:01:00,00:02:00), got ${JSON.stringify(text)}`;
  const trimmed = text.trim();
  if (/\s/.test(trimmed) && !trimmed.includes(',')) {
    const sides = trimmed.split(/\s+/);
    if (sides.length !== 2) throw new InvalidInputError(expected);
    return [sides[0], sides[1]];
  }
  const readable = (value: string) => {
    try {
      parseTime(value.trim(), { fps, field: '--within' });
      return true;
    } catch {
      return false;
    }
  };
  const splits: [string, string][] = [];
  for (let i = trimmed.indexOf(','); i >= 0; i = trimmed.indexOf(',', i + 1)) {
    const [start, end] = [trimmed.slice(0, i).trim(), trimmed.slice(i + 1).trim()];
    if (readable(start) && readable(end)) splits.push([start, end]);
  }
  if (splits.length === 1) return splits[0];
  if (splits.length > 1) throw new InvalidInputError(`--within: ${JSON.stringify(text)} can be read two ways; write the times with a point, not a comma`);
  throw new InvalidInputError(expected);
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** A subtitle or other file is not changed in place: it is converted, with the same flags. */
function refuseOtherFormats(path: string): void {
  let stats;
  try {
    stats = statSync(path);
  } catch {
    return; // missing: openServiceStore names it
  }
  if (stats.isDirectory()) throw new InvalidInputError(`${path}: is a directory, expected a .annot file`);
  if (stats.size === 0) return;
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(SQLITE_HEADER)) {
    throw new InvalidInputError(`${path}: not a .annot file; annot retime changes a .annot file or a PostgreSQL project in place (retime a file in another format while converting it: annot convert ${path} OUT --shift …)`);
  }
}

/** `retimed 1,204 annotations in talk.annot: +2.5 s; 3 cut at 0 s`. */
export function summaryLine(result: RetimeStoreResult, name: string): string {
  const { moved, cut, dropped, rounded } = result.counts;
  const parts = [`retimed ${plural(moved, 'annotation')} in ${name}: ${result.description}`];
  if (cut > 0) parts.push(`${groupedDigits(cut)} cut at 0 s`);
  if (dropped > 0) parts.push(`${groupedDigits(dropped)} dropped before 0 s`);
  if (result.droppedReferring > 0) parts.push(`${groupedDigits(result.droppedReferring)} without a time dropped with ${result.droppedReferring === 1 ? 'its target' : 'their targets'}`);
  if (rounded > 0) parts.push(`${plural(rounded, 'time')} rounded to a tick (--strict-time refuses)`);
  if (result.clock === null) parts.push('nothing changed');
  return parts.join('; ');
}
