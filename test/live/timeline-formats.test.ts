import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { eventually } from '../support/serve-cli.js';
import { toneSamples, wavBytes } from '../support/wav.js';
import { chromiumPath } from './browser.js';
import { openPageSession, seconds, type PageSession } from './page-session.js';

// Create, split, merge, delete and undo from the page on every format annot serve saves back to: the
// same two cues converted by annot into each, served with a 10 s media file, and edited in chromium as a
// user would, each edit saved to the file in its own format (which then reads back valid).

const executablePath = chromiumPath();
const maybe = executablePath ? describe : describe.skip;

declare const window: { annotTimeline: { view: { playhead: number | null; selected: string | null } } };
declare const document: { getElementById(id: string): unknown };

const CUES = 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nfirst cue\n\n00:00:05.000 --> 00:00:06.000\nsecond cue\n';
const EXTENSIONS = ['vtt', 'srt', 'TextGrid', 'annot', 'sbv', 'ass', 'ttml', 'eaf', 'jams', 'otio', 'jsonld', 'labelstudio.json'];

maybe('editing from the page on every format annot serve saves back to', () => {
  const { dir, cleanup } = tempDir();
  let session: PageSession | undefined;

  beforeAll(() => {
    writeFileSync(join(dir, 'cues.vtt'), CUES);
    writeFileSync(join(dir, 'media.wav'), wavBytes(toneSamples(10, 8000), 8000));
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });
  afterAll(cleanup);

  /** What the file holds: its text (the texts are written as they are in every one of these formats), or for an .annot store what annot reads of it. */
  const textsIn = async (file: string): Promise<string> => {
    if (!file.endsWith('.annot')) return readFileSync(file, 'utf8');
    const queried = await runCli(['query', file]);
    expect(queried.code).toBe(0);
    return queried.stdout;
  };

  it.each(EXTENSIONS)('creates with N, splits, merges, deletes and undoes on a .%s file, each saved to it', async (extension) => {
    const file = join(dir, `cues-${extension.replace('.', '-')}.${extension}`);
    if (extension === 'vtt') copyFileSync(join(dir, 'cues.vtt'), file);
    else expect((await runCli(['convert', join(dir, 'cues.vtt'), file])).code).toBe(0);
    session = await openPageSession(executablePath!, [file, '--media', join(dir, 'media.wav'), '--save-delay', '100'], join(dir, 'cache'));
    const page: Page = session.page;
    const said = async (text: string) => page.waitForFunction((words) => (document.getElementById('announcer') as { textContent: string }).textContent === words, text, { timeout: 30_000 });
    const setPlayhead = async (t: number) => {
      await page.evaluate((at) => {
        (document.getElementById('media') as { currentTime: number }).currentTime = at;
      }, t);
      await page.waitForFunction((at) => window.annotTimeline.view.playhead === at, t);
    };
    /** The annotations past 7 s, in time order: what the edits below make and unmake. */
    const added = async () =>
      (await session!.all()).filter((annotation) => seconds(annotation.reference.interval.start) >= 7).sort((a, b) => seconds(a.reference.interval.start) - seconds(b.reference.interval.start)).map((annotation) => [String(annotation.body.text ?? ''), seconds(annotation.reference.interval.start), seconds(annotation.reference.interval.end)]);

    // The first cue selected: its lane is the one N creates on.
    await page.focus('#blocks');
    await page.keyboard.press('Home');
    await setPlayhead(7.5);
    await page.keyboard.press('n');
    const editor = page.locator('#text-editor');
    await editor.fill('zebra words');
    await editor.press('Enter');
    await said('created "zebra words" on ' + (await session.all())[0].tier + ', 7.5 s to 8.5 s');
    expect(await added()).toEqual([['zebra words', 7.5, 8.5]]);
    await eventually(async () => (await textsIn(file)).includes('zebra words'), `the new annotation in ${file}`);

    await setPlayhead(8);
    await page.keyboard.press('s');
    await said('split "zebra words" at 8 s in two');
    expect(await added()).toEqual([['zebra words', 7.5, 8], ['', 8, 8.5]]);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('m');
    await said('merged "zebra words" and "" into "zebra words"');
    expect(await added()).toEqual([['zebra words', 7.5, 8.5]]);

    await page.keyboard.press('Delete');
    await said(`deleted "zebra words" on ${(await session.all())[0].tier}`);
    expect(await added()).toEqual([]);
    await eventually(async () => !(await textsIn(file)).includes('zebra words'), `the deletion saved to ${file}`);
    await page.keyboard.press('Control+z');
    await said(`undid the deletion of "zebra words" on ${(await session.all())[0].tier}`);
    expect(await added()).toEqual([['zebra words', 7.5, 8.5]]);
    await eventually(async () => (await textsIn(file)).includes('zebra words'), `the restored annotation in ${file}`);

    // It reads back valid (a TextGrid holds the gaps between the cues as empty intervals too).
    const validated = await runCli(['validate', file]);
    expect([validated.code, validated.stdout]).toEqual([0, expect.stringMatching(/: valid, 0 errors/)]);
  });
});
