import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { eventually, serveCli, type ServedCli } from '../support/serve-cli.js';
import { chromiumPath, toneWav } from './browser.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'fixtures/eaf/all-stereotypes.eaf');
const SCREENSHOT_DIR = join(ROOT, 'test-output');
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
    model: { items: Map<string, unknown>; lanes: Array<{ tier: { name: string; stereotype: string }; depth: number }> };
    view: { pxPerSecond: number; xOf(seconds: number): number };
    blockCenter(id: string): { x: number; y: number } | null;
  };
};
declare const document: { getElementById(id: string): unknown };

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
    writeFileSync(join(dir, 'tone.wav'), toneWav(4));
    served = await serveCli([file, '--media', join(dir, 'tone.wav'), '--save-delay', '100'], { killAfterMs: 600_000 });
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
    await page.waitForFunction((id) => window.annotTimeline.model.items.has(id), created.json.id, { timeout: 1000 });
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

  it('retimes a block dragged by its body, in the store', async () => {
    await page.click('#zoom-fit');
    const before = await byText('added from the test');
    const pxPerSecond = await page.evaluate(() => window.annotTimeline.view.pxPerSecond);
    await dragBy(before.id, 80);
    const shift = 80 / pxPerSecond;
    let after = before;
    for (let i = 0; i < 100 && after.reference.interval.start.v === before.reference.interval.start.v; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = (await api('GET', `/annotations/${before.id}`)).json;
    }
    expect(seconds(after.reference.interval.start)).toBeCloseTo(seconds(before.reference.interval.start) + shift, 1);
    expect(seconds(after.reference.interval.end) - seconds(after.reference.interval.start)).toBeCloseTo(seconds(before.reference.interval.end) - seconds(before.reference.interval.start), 2);
    expect(after.reference.interval.start.r).toBe(before.reference.interval.start.r);
  });

  it("refuses a parent dragged past its INCLUDED_IN child: the server's message is shown and the block goes back", async () => {
    await page.click('#zoom-fit');
    const laughs = await byText('<laughs>');
    const gesture = await byText('point');
    // <laughs> [2, 3) holds the gesture "point" [2.25, 2.6): 80 px to the right starts it after the gesture.
    await dragBy(laughs.id, 80);
    const message = page.locator('#refused-message');
    await message.waitFor({ state: 'visible' });
    expect(await message.textContent()).toMatch(new RegExp(`^annotation ${laughs.id} on tier "A-utt" would start at [\\d.]+ s, after the start of its child ${gesture.id} on "A-gesture" \\(starts 2\\.25 s\\): INCLUDED_IN children stay inside their parent`));
    expect(await page.locator('#conflict h2').textContent()).toContain('409');
    await page.waitForFunction(
      ({ id, start }) => (window.annotTimeline.model.items.get(id) as { start: number } | undefined)?.start === start,
      { id: laughs.id, start: seconds(laughs.reference.interval.start) },
    );
    expect((await api('GET', `/annotations/${laughs.id}`)).json.reference).toEqual(laughs.reference);
    await page.click('#refused-ok');
    await page.locator('#conflict').waitFor({ state: 'hidden' });
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

    const conflict = page.locator('#conflict');
    await conflict.waitFor({ state: 'visible' });
    expect(await page.locator('#conflict-current').textContent()).toContain('changed elsewhere');
    expect((await api('GET', `/annotations/${target.id}`)).json.body.text).toBe('changed elsewhere');
    await page.click('#conflict-retry');
    let text = '';
    for (let i = 0; i < 100 && text !== 'changed in the page'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      text = (await api('GET', `/annotations/${target.id}`)).json.body.text;
    }
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
    for (let i = 0; i < 100 && after.amp.reference.interval.start.v === amp.reference.interval.start.v; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      after = { cat: (await api('GET', `/annotations/${cat.id}`)).json, amp: (await api('GET', `/annotations/${amp.id}`)).json };
    }
    const boundary = seconds(after.cat.reference.interval.end);
    expect(boundary).toBeCloseTo(seconds(cat.reference.interval.end) + 30 / pxPerSecond, 1);
    expect(seconds(after.amp.reference.interval.start)).toBe(boundary);
    // The other edges stay exactly where they were.
    expect(after.cat.reference.interval.start).toEqual(cat.reference.interval.start);
    expect(after.amp.reference.interval.end).toEqual(amp.reference.interval.end);
    expect(await page.locator('#conflict').isHidden()).toBe(true);
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
    await page.waitForFunction((added) => window.annotTimeline.model.items.has(added), id, { timeout: 5000 });
    await page.close();
  });
});
