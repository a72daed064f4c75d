import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { existingOutput, OUTPUT_EXTENSIONS, stateOf, untouched } from '../support/existing-output.js';
import { oneLine, runToEnd, srtOfCues, unprivilegedRunner, writableFolder } from '../support/file-safety.js';
import { ANNOT_BIN } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

// A conversion over an existing output that cannot be written, for want of space (the file size
// limit; a full file system) or of the right to write the folder: refused in one typed line, exit
// 1, and the output stays as it was, bytes and modification time alike, with nothing beside it.

const { dir, cleanup } = tempDir('annot-existing-disk-');
afterAll(cleanup);
const inputs = join(dir, 'inputs');
mkdirSync(inputs);
/** Its output in any format is past the limits below. */
const BIG = join(inputs, 'big.srt');
writeFileSync(BIG, srtOfCues(20_000));
let n = 0;
const folder = () => join(dir, `case-${n++}`);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('past the file size limit (prlimit --fsize): an existing output as it was', () => {
  const LIMIT = 64 * 1024;

  it.each(OUTPUT_EXTENSIONS)('convert into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const result = await runToEnd(['convert', BIG, existing.path], { prefix: ['prlimit', `--fsize=${LIMIT}`] });
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(`annot: file size limit exceeded writing ${existing.path} (the limit is ${LIMIT} bytes: ulimit -f, RLIMIT_FSIZE) [ANNOT_FILE_TOO_LARGE]`);
    expect(stateOf(existing)).toEqual(untouched(existing));
  });
});

/** Whether this machine lets a child mount a tmpfs in a private mount namespace (root with CAP_SYS_ADMIN). */
function privateTmpfs(): string | null {
  const probe = spawnSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt && umount /mnt']);
  return probe.status === 0 ? null : `unshare -m with a tmpfs mount is not allowed here (${probe.error?.message ?? probe.stderr.toString().trim()})`;
}

const tmpfsRefused = privateTmpfs();
if (tmpfsRefused !== null) console.warn(`\n!!! ${tmpfsRefused}: the full-file-system cases of existing outputs are SKIPPED; prlimit still covers them. !!!\n`);

(tmpfsRefused === null ? describe : describe.skip)('on a full file system (a 512 KiB tmpfs): an existing output as it was', () => {
  /**
   * The output is copied onto a tmpfs in a private mount namespace (its time kept), the conversion
   * fills the tmpfs, and what is there afterwards is described before the namespace, and with it the
   * tmpfs, goes away: the output's SHA-256 and modification time, and the names beside it.
   */
  const describeAfter =
    "const fs = require('fs'); const path = process.argv[1]; " +
    "console.log(JSON.stringify({ sha256: require('crypto').createHash('sha256').update(fs.readFileSync(path)).digest('hex'), " +
    "mtimeNs: String(fs.statSync(path, { bigint: true }).mtimeNs), folder: fs.readdirSync(require('path').dirname(path)).sort() }));";

  // One format of each path (streamed, whole, a store filled in bulk): the file size limit above has every format.
  it.each(['vtt', 'eaf', 'annot'])('convert into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const mountPoint = join(dir, `full-${n++}`);
    mkdirSync(mountPoint);
    const name = `out.${extension}`;
    const script = `mount -t tmpfs -o size=512k tmpfs "$FULL" && cp -p "$EXISTING" "$FULL/${name}" && "$NODE" "$ANNOT" convert "$BIG" "$FULL/${name}"; echo "exit $?"; "$NODE" -e "$DESCRIBE" "$FULL/${name}"`;
    const run = spawnSync('unshare', ['-m', 'sh', '-c', script], {
      env: { ...process.env, ANNOT_TOKEN: '', FULL: mountPoint, NODE: process.execPath, ANNOT: ANNOT_BIN, BIG, EXISTING: existing.path, DESCRIBE: describeAfter },
    });
    const [status, described] = run.stdout.toString().trimEnd().split('\n');
    expect(status).toBe('exit 1');
    expect(oneLine(run.stderr.toString())).toMatch(new RegExp(`^annot: no space left on the device writing ${escaped(join(mountPoint, name))} \\[ANNOT_NO_SPACE\\]$`));
    const sha256 = (await import('node:crypto')).createHash('sha256').update(existing.bytes).digest('hex');
    expect(JSON.parse(described)).toEqual({ sha256, mtimeNs: String(existing.mtimeNs), folder: [name] });
  });
});

const runner = unprivilegedRunner();

describe('in a folder the user cannot write: an existing output as it was', () => {
  if ('reason' in runner) {
    it('needs a way to run the commands as a user who cannot write the folder', () => {
      throw new Error(`cannot test read-only folders here: ${runner.reason}`);
    });
    return;
  }
  const home = writableFolder(join(dir, 'home'));

  it.each(OUTPUT_EXTENSIONS)('convert into .%s', async (extension) => {
    const existing = await existingOutput(folder(), extension);
    const readOnly = dirname(existing.path);
    chmodSync(dir, 0o755);
    chmodSync(inputs, 0o755);
    chmodSync(BIG, 0o644);
    chmodSync(readOnly, 0o555);
    try {
      const result = await runToEnd(['convert', BIG, existing.path], { env: { HOME: home }, prefix: runner.prefix });
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr)).toBe(`annot: permission denied: cannot write ${existing.path} (the folder ${readOnly} is not writable) [ANNOT_PERMISSION_DENIED]`);
      expect(stateOf(existing)).toEqual(untouched(existing));
    } finally {
      chmodSync(readOnly, 0o755);
    }
  });
});
