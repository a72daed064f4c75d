import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { eventually, serveCli, type ServedCli } from '../support/serve-cli.js';
import { chromiumPath, toneWav } from './browser.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'fixtures/eaf/all-stereotypes.eaf');
const TOUR = join(ROOT, 'fixtures/tour/interview.eaf');
const SCREENSHOT_DIR = join(ROOT, 'test-output');
/** Screenshots to look at: the overlay, the fit and the focus ring, before and after. */
const SHOTS = join(tmpdir(), 'annot-timeline-page');
const executablePath = chromiumPath();
const maybe = executablePath ? describe : describe.skip;

interface Wire {
  id: string;
  tier: string;
  reference: { kind: string; interval: { start: { v: number; r: number }; end: { v: number; r: number } } };
  body: Record<string, unknown>;
}

// The page's globals as the callbacks given to page.evaluate see them (this file has no DOM types).
declare const window: {
  annotTimeline: {
    ready: boolean;
    model: { items: Map<string, unknown>; lanes: Array<{ tier: { name: string; stereotype: string }; depth: number }>; extent(): [number, number] };
    view: { pxPerSecond: number; selected: string | null; playhead: number | null; viewStart: number; timelineWidth: number; xOf(seconds: number): number };
    blockCenter(id: string): { x: number; y: number } | null;
  };
};
declare const document: { getElementById(id: string): unknown; activeElement: { id: string } | null };

// The EAF itself is served (a copy: every edit is saved back to it), so the page is tested on a
// file in another format than .annot; the --token case below serves a .annot file.
maybe('the timeline page in chromium (annot serve FILE.eaf --media)', () => {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'session.eaf');
  let served: ServedCli | undefined;
  let url: string;
  let browser: Browser;
  let page: Page;

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(url + path, { method, headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, etag: response.headers.get('etag'), json: text === '' ? undefined : JSON.parse(text) };
  };
  const byText = async (text: string): Promise<Wire> => ((await api('GET', '/annotations?limit=1000')).json as Wire[]).find((a) => a.body.text === text)!;

  beforeAll(async () => {
    copyFileSync(FIXTURE, file);
    mkdirSync(SHOTS, { recursive: true });
    writeFileSync(join(dir, 'tone.wav'), toneWav(4));
    served = await serveCli([file, '--media', join(dir, 'tone.wav'), '--save-delay', '100'], { killAfterMs: 600_000, env: { ANNOT_CACHE_DIR: join(dir, 'cache') } });
    url = served.url;
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${url}/`);
    await page.waitForFunction(() => window.annotTimeline?.ready === true, null, { timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    cleanup();
  });

  it("shows the fixture's tiers as lanes, each nested under its parent, with the media player", async () => {
    const lanes = await page.evaluate(() => window.annotTimeline.model.lanes.map((lane) => [lane.tier.name, lane.tier.stereotype, lane.depth]));
    expect(lanes).toEqual([
      ['A-utt', 'NONE', 0],
      ['A-words', 'TIME_SUBDIVISION', 1],
      ['A-morph', 'SYMBOLIC_SUBDIVISION', 2],
      ['A-gesture', 'INCLUDED_IN', 1],
      ['A-translation', 'SYMBOLIC_ASSOCIATION', 1],
      ['empty', 'NONE', 0],
    ]);
    expect(await page.evaluate(() => window.annotTimeline.model.items.size)).toBe(10);
    expect(await page.locator('audio#media').count()).toBe(1);
  });

  it('shows an annotation added through the HTTP API within a second, without a reload', async () => {
    const created = await api('POST', '/annotations', {
      tier: 'A-utt',
      reference: { kind: 'media', asset_id: 'file:///media/session.wav', interval: { start: { v: 3100, r: 1000 }, end: { v: 3900, r: 1000 } } },
      body: { text: 'added from the test' },
      body_schema_uri: 'annot://schema/eaf-annotation/v1',
    });
    expect(created.status).toBe(201);
    await page.waitForFunction((id) => window.annotTimeline.model.items.has(id), created.json.id, { timeout: 30_000 });
  });

  /** Drags a block by its body `dx` pixels to the right, as a person would. */
  const dragBy = async (id: string, dx: number) => {
    const center = (await page.evaluate((block) => window.annotTimeline.blockCenter(block), id))!;
    await page.mouse.move(center.x, center.y);
    await page.mouse.down();
    await page.mouse.move(center.x + dx / 2, center.y, { steps: 5 });
    await page.mouse.move(center.x + dx, center.y, { steps: 5 });
    await page.mouse.up();
  };
  const seconds = (t: { v: number; r: number }) => t.v / t.r;
  /** Where the page's parts are on screen: the header, the player, the lanes, the inspector. */
  const layout = () => Promise.all(['#bar', '#media-box', '#timeline', '#canvas', '#inspector'].map((selector) => page.locator(selector).boundingBox()));

  it('retimes a block dragged by its body, in the store', async () => {
    await page.click('#zoom-fit');
    const before = await byText('added from the test');
    const pxPerSecond = await page.evaluate(() => window.annotTimeline.view.pxPerSecond);
    await dragBy(before.id, 80);
    const shift = 80 / pxPerSecond;
    let after = before;
    await eventually(async () => {
      after = (await api('GET', `/annotations/${before.id}`)).json;
      return after.reference.interval.start.v !== before.reference.interval.start.v;
    }, 'the dragged block saved to the store', 30_000);
    expect(seconds(after.reference.interval.start)).toBeCloseTo(seconds(before.reference.interval.start) + shift, 1);
    expect(seconds(after.reference.interval.end) - seconds(after.reference.interval.start)).toBeCloseTo(seconds(before.reference.interval.end) - seconds(before.reference.interval.start), 2);
    expect(after.reference.interval.start.r).toBe(before.reference.interval.start.r);
  });

  it("refuses a parent dragged past its INCLUDED_IN child: the server's message is shown and the block goes back", async () => {
    await page.click('#zoom-fit');
    const laughs = await byText('<laughs>');
    const gesture = await byText('point');
    const layoutBefore = await layout();
    await page.screenshot({ path: join(SHOTS, 'before-refusal.png') });
    // <laughs> [2, 3) holds the gesture "point" [2.25, 2.6): 80 px to the right starts it after the gesture.
    await dragBy(laughs.id, 80);
    const message = page.locator('#refused-message');
    await message.waitFor({ state: 'visible' });
    await page.screenshot({ path: join(SHOTS, 'refusal-overlay.png') });
    // An overlay: nothing under it moved, so the next click lands where the user aimed.
    expect(await layout()).toEqual(layoutBefore);
    // The annotations are named by their text (and tier), never by their ids.
    expect(await message.textContent()).toMatch(/^annotation "<laughs>" on tier "A-utt" would start at [\d.]+ s, after the start of its child "point" on "A-gesture" \(starts 2\.25 s\): INCLUDED_IN children stay inside their parent/);
    expect(await page.locator('#notice').textContent()).not.toContain(gesture.id);
    expect(await page.locator('#notice').textContent()).not.toContain(laughs.id);
    expect(await page.locator('#notice h2').textContent()).toContain('409');
    await page.waitForFunction(
      ({ id, start }) => (window.annotTimeline.model.items.get(id) as { start: number } | undefined)?.start === start,
      { id: laughs.id, start: seconds(laughs.reference.interval.start) },
    );
    expect((await api('GET', `/annotations/${laughs.id}`)).json.reference).toEqual(laughs.reference);
    await page.click('#refused-ok');
    await page.locator('#notice').waitFor({ state: 'hidden' });
  });

  it('turns a concurrent edit into the 412 path: the current version is shown and the change is retried on it', async () => {
    const target = await byText('point');
    const center = (await page.evaluate((id) => window.annotTimeline.blockCenter(id), target.id))!;
    await page.mouse.dblclick(center.x, center.y);
    const editor = page.locator('#text-editor');
    await editor.waitFor();
    // The page holds the ETag of the version it opened; meanwhile someone else edits it.
    await page.waitForFunction((id) => (window.annotTimeline.model.items.get(id) as { etag: string | null }).etag !== null, target.id);
    const current = await api('GET', `/annotations/${target.id}`);
    const elsewhere = await api('PATCH', `/annotations/${target.id}`, { body: { ...target.body, text: 'changed elsewhere' } }, { 'if-match': current.etag! });
    expect(elsewhere.status).toBe(200);
    await editor.fill('changed in the page');
    await editor.press('Enter');

    const conflict = page.locator('#notice');
    await conflict.waitFor({ state: 'visible' });
    expect(await page.locator('#conflict-current').textContent()).toContain('changed elsewhere');
    expect((await api('GET', `/annotations/${target.id}`)).json.body.text).toBe('changed elsewhere');
    await page.click('#conflict-retry');
    let text = '';
    await eventually(async () => {
      text = (await api('GET', `/annotations/${target.id}`)).json.body.text;
      return text === 'changed in the page';
    }, 'the retried edit saved to the store', 30_000);
    expect(text).toBe('changed in the page');
    await conflict.waitFor({ state: 'hidden' });
  });

  it('moves the boundary two TIME_SUBDIVISION blocks share: both annotations change in the store, still tiling their parent', async () => {
    await page.click('#zoom-fit');
    const cat = await byText('the cat');
    const amp = await byText('&');
    expect(cat.reference.interval.end).toEqual(amp.reference.interval.start);
    const box = (await page.locator('#canvas').boundingBox())!;
    const { edge, pxPerSecond } = await page.evaluate((end) => ({ edge: window.annotTimeline.view.xOf(end), pxPerSecond: window.annotTimeline.view.pxPerSecond }), seconds(cat.reference.interval.end));
    const y = (await page.evaluate((id) => window.annotTimeline.blockCenter(id), cat.id))!.y;
    await page.mouse.move(box.x + edge, y);
    await page.mouse.down();
    await page.mouse.move(box.x + edge + 15, y, { steps: 5 });
    await page.mouse.move(box.x + edge + 30, y, { steps: 5 });
    await page.mouse.up();
    let after = { cat, amp };
    await eventually(async () => {
      after = { cat: (await api('GET', `/annotations/${cat.id}`)).json, amp: (await api('GET', `/annotations/${amp.id}`)).json };
      // Both, read one after the other: the page's one transaction may land between the two reads.
      return after.cat.reference.interval.end.v !== cat.reference.interval.end.v && after.amp.reference.interval.start.v !== amp.reference.interval.start.v;
    }, 'the moved boundary saved to the store', 30_000);
    const boundary = seconds(after.cat.reference.interval.end);
    expect(boundary).toBeCloseTo(seconds(cat.reference.interval.end) + 30 / pxPerSecond, 1);
    expect(seconds(after.amp.reference.interval.start)).toBe(boundary);
    // The other edges stay exactly where they were.
    expect(after.cat.reference.interval.start).toEqual(cat.reference.interval.start);
    expect(after.amp.reference.interval.end).toEqual(amp.reference.interval.end);
    expect(await page.locator('#notice').isHidden()).toBe(true);
    // Both blocks on the page show the saved versions.
    await page.waitForFunction(
      ({ ids, at }) => ids.every((id, index) => (window.annotTimeline.model.items.get(id) as { start: number; end: number })[index === 0 ? 'end' : 'start'] === at),
      { ids: [cat.id, amp.id], at: boundary },
    );
  });

  it('saves the edits made on the page and over HTTP back to the .eaf', async () => {
    const dragged = await byText('added from the test');
    const startMs = (dragged.reference.interval.start.v * 1000) / dragged.reference.interval.start.r;
    await eventually(() => {
      const eaf = readFileSync(file, 'utf8');
      return eaf.includes('>added from the test<') && eaf.includes('>changed in the page<') && eaf.includes(`TIME_VALUE="${startMs}"`);
    }, 'the HTTP addition, the edited text and the dragged block in session.eaf');
    // The file reads back whole, and valid: the drag that would have left the gesture outside <laughs> was refused.
    const validated = await runCli(['validate', file]);
    expect(validated.stdout).toContain('11 annotations in 6 tiers');
    expect(validated.code).toBe(0);
  });

  it('seeks the media by clicking the axis, and writes a screenshot under test-output/', async () => {
    await page.click('#zoom-fit');
    const box = (await page.locator('#canvas').boundingBox())!;
    await page.mouse.click(box.x + 600, box.y + 10);
    await page.waitForFunction(() => (document.getElementById('media') as { currentTime: number }).currentTime > 0);
    const selected = await byText('the cat & the dog');
    const center = (await page.evaluate((id) => window.annotTimeline.blockCenter(id), selected.id))!;
    await page.mouse.click(center.x, center.y);
    await page.locator('#inspector-wire').waitFor();
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'timeline-page.png') });
  });

  // ---- the keyboard, as in ELAN, and what assistive technology is told -------------------------

  const focusedId = () => page.evaluate(() => document.activeElement?.id ?? '');
  const selectedText = () => page.evaluate(() => {
    const { view, model } = window.annotTimeline;
    const item = view.selected === null ? undefined : (model.items.get(view.selected) as { wire: { body: { text?: string } } } | undefined);
    return item?.wire.body.text ?? null;
  });
  const media = (): Promise<{ paused: boolean; currentTime: number }> =>
    page.evaluate(() => {
      const element = document.getElementById('media') as { paused: boolean; currentTime: number };
      return { paused: element.paused, currentTime: element.currentTime };
    });

  it('moves between blocks with the arrow keys, Home and End, and exposes the selected block to assistive technology', async () => {
    // Tab from the header's controls (past the player's own) into the timeline.
    await page.focus('#zoom-fit');
    for (let i = 0; i < 40 && (await focusedId()) !== 'blocks'; i++) await page.keyboard.press('Tab');
    expect(await focusedId()).toBe('blocks');
    await page.keyboard.press('Home');
    expect(await selectedText()).toBe('the cat & the dog');
    // Down: the block at the same time in the tier below (A-words tiles its parent).
    await page.keyboard.press('ArrowDown');
    expect(await selectedText()).toBe('&');
    await page.keyboard.press('End');
    expect(await selectedText()).toBe('the dog');
    await page.keyboard.press('ArrowLeft');
    expect(await selectedText()).toBe('&');
    await page.keyboard.press('Home');
    expect(await selectedText()).toBe('the cat');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await selectedText()).toBe('the dog');
    await page.keyboard.press('ArrowUp');
    expect(await selectedText()).toBe('the cat & the dog');
    await page.keyboard.press('ArrowRight');
    expect(await selectedText()).toBe('<laughs>');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    expect(await selectedText()).toBe('the dog');

    // A listbox of the blocks in view, one group per tier; the selection is its active option.
    const listbox = page.locator('#blocks');
    await page.waitForFunction(() => {
      const box = document.getElementById('blocks') as { getAttribute(name: string): string | null } | null;
      const active = box?.getAttribute('aria-activedescendant');
      return !!active && (document.getElementById(active) as { textContent: string } | null)?.textContent?.startsWith('the dog,') === true;
    });
    const snapshot = await listbox.ariaSnapshot();
    expect(snapshot).toContain('listbox "annotations in view, by tier"');
    expect(snapshot).toContain('group "tier A-words (TIME_SUBDIVISION, under A-utt), 3 annotations"');
    expect(snapshot).toContain('option "the dog, A-words, 1 s to 1.5 s" [selected]');
    expect(snapshot.match(/\[selected\]/g)).toHaveLength(1);
    expect(await page.locator('#inspector h2').textContent()).toBe('the dog');
    await page.screenshot({ path: join(SHOTS, 'keyboard-focus.png') });
  });

  it('nudges the picked edge by 10 ms (no frame rate for audio); a shared TIME_SUBDIVISION boundary moves both blocks in the store', async () => {
    const dog = await byText('the dog');
    const amp = await byText('&');
    expect(dog.reference.interval.start).toEqual(amp.reference.interval.end);
    await page.keyboard.press('[');
    await page.waitForFunction(() => (document.getElementById('announcer') as { textContent: string }).textContent.startsWith('start edge'));
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
    await eventually(async () => (await api('GET', `/annotations/${dog.id}`)).json.reference.interval.start.v === 1030, 'the start of "the dog" at 1.03 s');
    const after = { dog: (await api('GET', `/annotations/${dog.id}`)).json as Wire, amp: (await api('GET', `/annotations/${amp.id}`)).json as Wire };
    expect(after.dog.reference.interval.start).toEqual({ v: 1030, r: 1000, s: '1.03' });
    expect(after.amp.reference.interval.end).toEqual(after.dog.reference.interval.start);
    expect(after.dog.reference.interval.end).toEqual(dog.reference.interval.end);
    expect(after.amp.reference.interval.start).toEqual(amp.reference.interval.start);
    await page.keyboard.press('[');
  });

  it('shows a refused nudge as an overlay that moves nothing, names the annotation by its text, and closes on Escape', async () => {
    const dog = await byText('the dog');
    const layoutBefore = await layout();
    // The end of "the dog" is its parent's end: a nudge later leaves the parent, which TIME_SUBDIVISION refuses.
    await page.keyboard.press(']');
    await page.keyboard.press('Shift+ArrowRight');
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    expect(await layout()).toEqual(layoutBefore);
    const text = (await notice.textContent())!;
    expect(text).toContain('"the dog"');
    expect(text).toContain('A-words');
    expect(text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    // An alert dialog, so a screen reader reads it out; its button has the focus.
    expect(await page.locator('[role=alertdialog]').ariaSnapshot()).toContain('heading "409 · refused: the change would break a tier constraint"');
    expect(await focusedId()).toBe('refused-ok');
    await page.screenshot({ path: join(SHOTS, 'refused-nudge.png') });
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'hidden' });
    expect(await focusedId()).toBe('blocks');
    expect((await api('GET', `/annotations/${dog.id}`)).json.reference).toEqual(dog.reference);
    await page.waitForFunction((id) => (window.annotTimeline.model.items.get(id) as { end: number }).end === 1.5, dog.id);
    await page.keyboard.press(']');
  });

  it('edits the text on Enter and saves it; the keys go back to the timeline', async () => {
    const dog = await byText('the dog');
    await page.keyboard.press('Enter');
    const editor = page.locator('#text-editor');
    await editor.waitFor();
    expect(await focusedId()).toBe('text-editor');
    expect(await editor.inputValue()).toBe('the dog');
    await editor.fill('the big dog');
    await editor.press('Enter');
    await eventually(async () => (await api('GET', `/annotations/${dog.id}`)).json.body.text === 'the big dog', 'the new text in the store');
    expect(await focusedId()).toBe('blocks');
    await page.waitForFunction(() => document.activeElement?.id === 'blocks');
    // Escape in the editor drops the change.
    await page.keyboard.press('Enter');
    await editor.waitFor();
    await editor.fill('not this');
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect((await api('GET', `/annotations/${dog.id}`)).json.body.text).toBe('the big dog');
  });

  it('plays and pauses the media on Space, and lists the keys on ?', async () => {
    await page.evaluate(() => {
      (document.getElementById('media') as { currentTime: number }).currentTime = 0;
    });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => {
      const element = document.getElementById('media') as { paused: boolean; currentTime: number };
      return !element.paused && element.currentTime > 0;
    });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (document.getElementById('media') as { paused: boolean }).paused);
    const pausedAt = (await media()).currentTime;
    expect(pausedAt).toBeGreaterThan(0);
    expect(await focusedId()).toBe('blocks');

    await page.keyboard.press('?');
    const help = page.locator('#help-dialog');
    await help.waitFor({ state: 'visible' });
    const keys = await help.ariaSnapshot();
    for (const words of ['previous block in the tier', 'nudge later by one frame', 'edit the text', 'play or pause the media']) expect(keys).toContain(words);
    await page.screenshot({ path: join(SHOTS, 'help.png') });
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await focusedId()).toBe('blocks');
  });
});

// The README's session: a first annotation at 0.3 s, and a 10 fps video whose frame rate the server reads.
maybe('the timeline page of the tour (interview.eaf with its video, --no-save)', () => {
  const { dir, cleanup } = tempDir();
  let served: ServedCli | undefined;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    served = await serveCli([TOUR, '--media', join(ROOT, 'fixtures/tour/interview.mp4'), '--no-save'], { killAfterMs: 600_000, env: { ANNOT_CACHE_DIR: join(dir, 'cache') } });
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${served.url}/`);
    await page.waitForFunction(() => window.annotTimeline?.ready === true, null, { timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    cleanup();
  });

  it('fits the whole timeline from 0 s inside the lanes: the 0 s tick and a playhead at 0 are in sight', async () => {
    await page.focus('#blocks');
    await page.keyboard.press('+');
    await page.keyboard.press('+');
    await page.click('#zoom-fit');
    const fitted = await page.evaluate(() => {
      const { view, model } = window.annotTimeline;
      return { zero: view.xOf(0), first: model.extent()[0], end: view.xOf(model.extent()[1]), right: 210 + view.timelineWidth, playhead: view.playhead };
    });
    expect(fitted.first).toBe(0.3);
    expect(fitted.playhead).toBe(0);
    // The lanes start right of the 210 px label column: 0 s (its tick, the playhead) is inside them, and so is the end.
    expect(fitted.zero).toBeGreaterThan(210);
    expect(fitted.zero).toBeLessThan(fitted.right);
    expect(fitted.end).toBeLessThanOrEqual(fitted.right);
    await page.screenshot({ path: join(SHOTS, 'tour-after-fit.png') });
  });

  it('nudges by one frame of the video (10 fps: 100 ms), read by the server from the file', async () => {
    const config = JSON.parse((await page.locator('#annot-config').textContent())!) as { media: { frame_duration: unknown } };
    expect(config.media.frame_duration).toEqual({ v: 1, r: 10 });
    await page.focus('#blocks');
    await page.keyboard.press('Home');
    const first = await page.evaluate(() => {
      const { view, model } = window.annotTimeline;
      return (model.items.get(view.selected!) as { wire: { id: string; body: { text: string } } }).wire;
    });
    expect(first.body.text).toBe('What did the keeper do?');
    await page.keyboard.press('[');
    await page.keyboard.press('Shift+ArrowRight');
    const at = async () => ((await (await fetch(`${served!.url}/annotations/${first.id}`)).json()) as Wire).reference.interval.start;
    await eventually(async () => (await at()).v === 400, 'the start one frame later, at 0.4 s');
    expect(await at()).toEqual({ v: 400, r: 1000, s: '0.4' });
  });
});

// Many annotations: the canvas draws only what is in view, and the accessible list holds only the blocks near the selection.
maybe('the timeline page of 20,000 annotations', () => {
  const CUES = 20_000;
  const { dir, cleanup } = tempDir();
  let served: ServedCli | undefined;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const file = join(dir, 'many.vtt');
    const stamp = (ms: number) => new Date(ms).toISOString().slice(11, 23);
    writeFileSync(file, `WEBVTT\n\n${Array.from({ length: CUES }, (_, i) => `${stamp(i * 500)} --> ${stamp(i * 500 + 400)}\ncue ${i}\n`).join('\n')}`);
    served = await serveCli([file, '--no-save'], { killAfterMs: 600_000 });
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    await page.goto(`${served.url}/`);
    await page.waitForFunction(() => window.annotTimeline?.ready === true, null, { timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    cleanup();
  });

  /** Waits until the listbox's active option is the block whose text starts so, and returns how many options it holds. */
  const activeOption = async (text: string) => {
    await page.waitForFunction((start) => {
      const box = document.getElementById('blocks') as { getAttribute(name: string): string | null };
      const active = box.getAttribute('aria-activedescendant');
      return !!active && (document.getElementById(active) as { textContent: string } | null)?.textContent?.startsWith(start) === true;
    }, `${text},`);
    return page.locator('#blocks [role=option]').count();
  };

  it('keeps the accessible list to the blocks near the selection, from the first block to the last', async () => {
    expect(await page.evaluate(() => window.annotTimeline.model.items.size)).toBe(CUES);
    await page.focus('#blocks');
    await page.keyboard.press('f');
    await page.keyboard.press('Home');
    await page.keyboard.press('Home');
    expect(await activeOption('cue 0')).toBeLessThanOrEqual(200);
    await page.keyboard.press('End');
    expect(await activeOption(`cue ${CUES - 1}`)).toBeLessThanOrEqual(200);
    await page.keyboard.press('ArrowLeft');
    const options = await activeOption(`cue ${CUES - 2}`);
    expect(options).toBeGreaterThan(10);
    expect(options).toBeLessThanOrEqual(200);
  });
});

maybe('the timeline page of a server with --token', () => {
  const { dir, cleanup } = tempDir();
  let served: ServedCli | undefined;
  let url: string;
  let browser: Browser;

  beforeAll(async () => {
    const file = join(dir, 'session.annot');
    expect((await runCli(['convert', FIXTURE, file])).code).toBe(0);
    served = await serveCli([file, '--token', 'open-sesame'], { killAfterMs: 600_000 });
    url = served.url;
    browser = await chromium.launch({ executablePath: executablePath!, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    cleanup();
  });

  it('asks for the token once, then sends it on every request and on the stream', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/`);
    await page.locator('#token-dialog').waitFor({ state: 'visible' });
    await page.fill('#token-input', 'open-sesame');
    await page.click('#token-ok');
    await page.waitForFunction(() => window.annotTimeline?.ready === true, null, { timeout: 15_000 });
    expect(await page.evaluate(() => window.annotTimeline.model.lanes.length)).toBe(6);
    const created = await fetch(`${url}/annotations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer open-sesame' },
      body: JSON.stringify({
        tier: 'A-utt',
        reference: { kind: 'media', asset_id: 'file:///media/session.wav', interval: { start: { v: 3100, r: 1000 }, end: { v: 3900, r: 1000 } } },
        body: { text: 'behind the token' },
        body_schema_uri: 'annot://schema/eaf-annotation/v1',
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    await page.waitForFunction((added) => window.annotTimeline.model.items.has(added), id, { timeout: 30_000 });
    await page.close();
  });
});
