import { UsageError } from '../errors/annot-error.js';
import { InvalidTimeError } from '../time/errors.js';
import { describeMap, flagSpelling, retimeMap, type RetimeMap, type RetimeRequest } from '../time/retime.js';
import type { RetimeReport } from '../service/retimed-document.js';
import { plural } from './finding-output.js';
import { parseTime } from '../time/time-input.js';
import type { RetimeFlagValues } from './retime-flags.js';

/**
 * The retime the flags ask for, checked before anything is read, or undefined when they ask for
 * none. A value that cannot be read is a usage error naming its flag, in one line.
 */
export function retimeOfFlags(flags: RetimeFlagValues): RetimeMap | undefined {
  const { shift, 'fps-from': fpsFrom, 'fps-to': fpsTo, scale, sync, within, fps } = flags;
  if ([shift, fpsFrom, fpsTo, scale, sync, within].every((value) => value === undefined)) {
    if (fps !== undefined) throw new UsageError('--fps: it gives the frame rate of SMPTE times in --shift, --sync and --within; give one of them too');
    return undefined;
  }
  const request: RetimeRequest = {
    ...(shift === undefined ? {} : { shift: shift.trim() }),
    ...(fpsFrom === undefined ? {} : { fps_from: fpsFrom }),
    ...(fpsTo === undefined ? {} : { fps_to: fpsTo }),
    ...(scale === undefined ? {} : { scale }),
    ...(sync === undefined ? {} : { sync }),
    ...(within === undefined ? {} : { within: windowOfFlag(within, fps) }),
    ...(fps === undefined ? {} : { fps }),
  };
  try {
    return retimeMap(request, flagSpelling);
  } catch (error) {
    if (error instanceof InvalidTimeError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `START,END`. A timecode may hold a comma itself (`00:01:02,500`), so the comma between the two
 * is the one where both sides read as times; two such places is ambiguous.
 */
function windowOfFlag(text: string, fps: string | undefined): [string, string] {
  const expected = `--within: expected START,END (for example 00:10:00,00:20:00 or 600,1200), got ${JSON.stringify(text)}`;
  const reads = (value: string): boolean => {
    try {
      parseTime(value.trim(), { fps, field: '--within' });
      return true;
    } catch {
      return false;
    }
  };
  const splits: [string, string][] = [];
  for (let i = text.indexOf(','); i >= 0; i = text.indexOf(',', i + 1)) {
    const start = text.slice(0, i).trim();
    const end = text.slice(i + 1).trim();
    if (reads(start) && reads(end)) splits.push([start, end]);
  }
  if (splits.length === 1) return splits[0];
  throw new UsageError(splits.length === 0 ? expected : `--within: ${JSON.stringify(text)} can be read two ways; write the times with a point, not a comma`);
}

/**
 * What a retime did, for stderr: the map and how many annotations it moved, then one warning per
 * kind of loss (cut or dropped before 0 s, rounded between ticks), as conversion losses are said.
 */
export function retimeLines(retimed: RetimeReport, map: RetimeMap | undefined): string[] {
  const how = map === undefined ? '' : ` (${describeMap(map)})`;
  return [`retimed ${plural(retimed.moved, 'annotation')}${how}`, ...retimed.findings.map((line) => `warning: retime: ${line}`)];
}
