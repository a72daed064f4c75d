import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';
import { eventually } from '../support/serve-cli.js';
import { toneSamples, wavBytes } from '../support/wav.js';
import { chromiumPath } from './browser.js';
import { openPageSession, seconds, type PageSession, type Wire } from './page-session.js';

// The timeline page as an annotation editor, in Debian's chromium against `annot serve` of an EAF file
// (saved back as it is edited): create with N and with a drag, delete, split and merge on a
// TIME_SUBDIVISION tier, undo and redo of every kind of edit, an undo refused after a change from curl,
// and the waveform lane drawn from the server's peaks of a tone followed by silence.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(ROOT, 'fixtures/eaf/all-stereotypes.eaf');
const executablePath = chromiumPath();
const maybe = executablePath ? describe : describe.skip;

// The page's globals as the callbacks given to page.evaluate see them (this file has no DOM types).
declare const window: {
  annotTimeline: {
    model: { items: Map<string, { start: number; end: number; wire: { id: string; body: { text?: string } } }>; lanes: Array<{ tier: { name: string } }> };
    view: {
      selected: string | null;
      playhead: number | null;
      draft: { tier: string; start: number; end: number } | null;
      activeLane: string | null;
      pxPerSecond: number;
      lanesTop: number;
      showsWaveform: boolean;
      waveform: { state: string } | null;
      xOf(seconds: number): number;
      timeAt(x: number): number;
      laneTop(lane: unknown): number;
    };
    blockCenter(id: string): { x: number; y: number } | null;
  };
};
declare const document: {
  getElementById(id: string): unknown;
  activeElement: { id: string } | null;
};

/** 4 s of media at 8 kHz: a 440 Hz tone for the first 2 s, then silence. */
const RATE = 8000;
const TONE_UNTIL = 2;

maybe('the timeline page as an editor (annot serve FILE.eaf --media tone-then-silence.wav)', () => {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'session.eaf');
  let session: PageSession;
  let page: Page;
  /** What the page sent, other than reads: method, path and body. */
  const sent: Array<{ method: string; path: string; body: unknown }> = [];

  beforeAll(async () => {
    copyFileSync(FIXTURE, file);
    writeFileSync(join(dir, 'tone-then-silence.wav'), wavBytes(toneSamples(4, RATE, { toneAt: (t) => t < TONE_UNTIL }), RATE));
    session = await openPageSession(executablePath!, [file, '--media', join(dir, 'tone-then-silence.wav'), '--save-delay', '100'], join(dir, 'cache'));
    page = session.page;
    page.on('request', (request) => {
      if (request.method() === 'GET') return;
      const data = request.postData();
      sent.push({ method: request.method(), path: new URL(request.url()).pathname, body: data ? JSON.parse(data) : undefined });
    });
    await page.click('#zoom-fit');
  }, 90_000);

  afterAll(async () => {
    await session?.close();
    cleanup();
  });

  const byText = async (text: string): Promise<Wire> => {
    const found = await session.byText(text);
    if (!found) throw new Error(`no annotation "${text}" in the store`);
    return found;
  };
  const clock = async (): Promise<number> => (await session.api('GET', '/oplog/latest-clock')).json.clock;
  /** Clicks a block, as a person selects it (the keys then act on it), after showing the whole timeline. */
  const clickBlock = async (id: string) => {
    await page.click('#zoom-fit');
    const center = (await page.evaluate((block) => window.annotTimeline.blockCenter(block), id))!;
    await page.mouse.click(center.x, center.y);
    await page.waitForFunction((block) => window.annotTimeline.view.selected === block, id);
  };
  /** The media element's time, as a person seeking it would leave it; the playhead follows. */
  const setPlayhead = async (t: number) => {
    await page.evaluate((at) => {
      (document.getElementById('media') as { currentTime: number }).currentTime = at;
    }, t);
    await page.waitForFunction((at) => window.annotTimeline.view.playhead === at, t);
  };
  /** Where a lane is on screen: its row's middle, and x of a time in it. */
  const laneAt = async (tier: string, t: number) => {
    const box = (await page.locator('#canvas').boundingBox())!;
    const { top, x } = await page.evaluate(
      ({ name, at }) => {
        const { view, model } = window.annotTimeline;
        return { top: view.laneTop(model.lanes.find((lane) => lane.tier.name === name)), x: view.xOf(at) };
      },
      { name: tier, at: t },
    );
    return { x: box.x + x, y: box.y + top + 18 };
  };
  /** Waits until the live region says `text`; else fails with what it and the status line said. */
  const announced = async (text: string) => {
    const said = () => page.evaluate(() => ['announcer', 'status', 'notice'].map((id) => (document.getElementById(id) as { textContent: string }).textContent));
    await page.waitForFunction((words) => (document.getElementById('announcer') as { textContent: string }).textContent === words, text, { timeout: 30_000 }).catch(async () => {
      throw new Error(`the live region never said ${JSON.stringify(text)}; it says ${JSON.stringify(await said())}`);
    });
  };
  const undo = () => page.keyboard.press('Control+z');
  const redo = () => page.keyboard.press('Control+Shift+z');
  const gone = async (id: string) => eventually(async () => (await session.api('GET', `/annotations/${id}`)).status === 404, `annotation ${id} deleted`);
  const interval = (wire: Wire) => [seconds(wire.reference.interval.start), seconds(wire.reference.interval.end)];

  // ---- create ---------------------------------------------------------------------------------

  it('creates with N on the active lane at the playhead: 1 s long, the editor open, saved (POST) on Enter and in the file', async () => {
    const laughs = await byText('<laughs>');
    await clickBlock(laughs.id);
    await setPlayhead(3.25);
    await page.keyboard.press('n');
    const editor = page.locator('#text-editor');
    await editor.waitFor();
    expect(await editor.getAttribute('aria-label')).toBe('text of the new annotation on A-utt, 3.25 s to 4.25 s (Enter saves, Escape cancels)');
    expect(await page.evaluate(() => window.annotTimeline.view.draft)).toEqual({ tier: 'A-utt', start: 3.25, end: 4.25 });
    await editor.fill('a new line');
    await editor.press('Enter');
    await announced('created "a new line" on A-utt, 3.25 s to 4.25 s');
    const created = await byText('a new line');
    expect([created.tier, created.reference.interval.start, created.reference.interval.end]).toEqual(['A-utt', { v: 3250, r: 1000, s: '3.25' }, { v: 4250, r: 1000, s: '4.25' }]);
    // As the tier's other annotations: an ELAN annotation, on their asset, made by the page.
    expect([created.body_schema_uri, created.reference.asset_id, created.provenance.was_attributed_to]).toEqual(['annot://schema/eaf-annotation/v1', 'file:///media/session.wav', 'timeline-page']);
    expect(sent.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual(['/annotations']);
    expect(await page.evaluate(() => window.annotTimeline.view.selected)).toBe(created.id);
    expect(await page.evaluate(() => window.annotTimeline.view.draft)).toBeNull();
    await eventually(() => readFileSync(file, 'utf8').includes('>a new line<'), 'the new annotation in session.eaf');
  });

  it('cuts a new block short at the next block of the tier, and keeps one on a dependent tier inside its parent', async () => {
    await clickBlock((await byText('the cat & the dog')).id);
    await setPlayhead(1.75);
    await page.keyboard.press('n');
    const editor = page.locator('#text-editor');
    await editor.waitFor();
    // <laughs> starts at 2 s.
    expect(await page.evaluate(() => window.annotTimeline.view.draft)).toEqual({ tier: 'A-utt', start: 1.75, end: 2 });
    await editor.fill('before the laugh');
    await editor.press('Enter');
    await announced('created "before the laugh" on A-utt, 1.75 s to 2 s');

    // A-gesture is INCLUDED_IN A-utt: at 2.7 s, inside <laughs> [2, 3), it ends with it.
    const lane = await laneAt('A-gesture', 0);
    await page.mouse.click(lane.x - 150, lane.y);
    await page.waitForFunction(() => window.annotTimeline.view.activeLane === 'A-gesture');
    await setPlayhead(2.7);
    await page.keyboard.press('n');
    await editor.waitFor();
    expect(await page.evaluate(() => window.annotTimeline.view.draft)).toEqual({ tier: 'A-gesture', start: 2.7, end: 3 });
    await editor.fill('wave');
    await editor.press('Enter');
    await announced('created "wave" on A-gesture, 2.7 s to 3 s');
    expect(interval(await byText('wave'))).toEqual([2.7, 3]);
  });

  it("refuses, in the overlay, a new block on a dependent tier where no parent holds the playhead, and one inside a block; nothing is sent", async () => {
    const before = sent.length;
    // Between "the cat & the dog" [0, 1.5) and "before the laugh" [1.75, 2) on A-utt.
    await setPlayhead(1.6);
    await page.keyboard.press('n');
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    expect(await page.locator('#refused-message').textContent()).toBe('no annotation of A-utt holds the playhead (1.6 s): an annotation of A-gesture (INCLUDED_IN) goes inside one.');
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'hidden' });
    await setPlayhead(2.3);
    await page.keyboard.press('n');
    await notice.waitFor({ state: 'visible' });
    expect(await page.locator('#refused-message').textContent()).toBe('the playhead (2.3 s) is inside "point" on A-gesture: split it with S, or start in an empty stretch.');
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'hidden' });
    expect(sent.length).toBe(before);
    expect(await page.locator('#text-editor').count()).toBe(0);
  });

  it('creates with a drag across an empty stretch of a lane (the empty tier), the editor open over it', async () => {
    const from = await laneAt('empty', 0.5);
    const to = await laneAt('empty', 1.5);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move((from.x + to.x) / 2, from.y, { steps: 4 });
    await page.mouse.move(to.x, to.y, { steps: 4 });
    const drawn = await page.evaluate(() => window.annotTimeline.view.draft);
    expect(drawn?.tier).toBe('empty');
    await page.mouse.up();
    const editor = page.locator('#text-editor');
    await editor.waitFor();
    await editor.fill('dragged');
    await editor.press('Enter');
    const created = await eventually(async () => (await session.byText('dragged')) !== undefined, 'the dragged annotation in the store').then(() => byText('dragged'));
    const [start, end] = interval(created);
    const pxPerSecond = await page.evaluate(() => window.annotTimeline.view.pxPerSecond);
    expect(Math.abs(start - 0.5)).toBeLessThan(2 / pxPerSecond);
    expect(Math.abs(end - 1.5)).toBeLessThan(2 / pxPerSecond);
    expect(created.tier).toBe('empty');
  });

  it('Escape in the editor of a new block leaves nothing behind: no request, no block, no draft', async () => {
    const before = { clock: await clock(), count: (await session.all()).length, sent: sent.length };
    const lane = await laneAt('empty', 0);
    await page.mouse.click(lane.x - 150, lane.y);
    await setPlayhead(2.5);
    await page.keyboard.press('n');
    const editor = page.locator('#text-editor');
    await editor.waitFor();
    await editor.fill('not this');
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
    await announced('cancelled: nothing created on empty');
    // And a drag let go into the editor, then Escape.
    const from = await laneAt('empty', 2.2);
    const to = await laneAt('empty', 3.2);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 6 });
    await page.mouse.up();
    await editor.waitFor();
    await editor.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => window.annotTimeline.view.draft)).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('blocks');
    expect([await clock(), (await session.all()).length, sent.length]).toEqual([before.clock, before.count, before.sent]);
  });

  // ---- delete ---------------------------------------------------------------------------------

  it('deletes the selected block with Delete (DELETE with If-Match), and refuses a parent with children in the overlay', async () => {
    const dragged = await byText('dragged');
    await clickBlock(dragged.id);
    await page.keyboard.press('Delete');
    await announced('deleted "dragged" on empty');
    await gone(dragged.id);
    const deletion = sent.find((request) => request.method === 'DELETE');
    expect(deletion?.path).toBe(`/annotations/${dragged.id}`);

    const parent = await byText('the cat & the dog');
    await clickBlock(parent.id);
    await page.keyboard.press('Backspace');
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    expect(await page.locator('#notice h2').textContent()).toBe('409 · refused: the change would break a tier constraint');
    expect(await page.locator('#refused-message').textContent()).toContain('deleting annotation "the cat & the dog" on tier "A-utt" would leave its child');
    await page.keyboard.press('Escape');
    await notice.waitFor({ state: 'hidden' });
    expect((await session.api('GET', `/annotations/${parent.id}`)).status).toBe(200);
  });

  // ---- split and merge on a TIME_SUBDIVISION tier -----------------------------------------------

  /** The A-words blocks under "the cat & the dog" [0, 1.5), in time order, and whether they tile it. */
  const words = async () => {
    const list = (await session.all()).filter((annotation) => annotation.tier === 'A-words').sort((a, b) => seconds(a.reference.interval.start) - seconds(b.reference.interval.start));
    const tiles = list.every((word, index) => index === 0 || seconds(word.reference.interval.start) === seconds(list[index - 1].reference.interval.end));
    return { list, covered: tiles && seconds(list[0].reference.interval.start) === 0 && seconds(list[list.length - 1].reference.interval.end) === 1.5 };
  };

  it('splits a block of a TIME_SUBDIVISION tier at the playhead in one PATCH /annotations (update and create): the parent stays covered', async () => {
    const cat = await byText('the cat');
    await clickBlock(cat.id);
    await setPlayhead(0.25);
    const from = sent.length;
    await page.keyboard.press('s');
    await announced('split "the cat" at 0.25 s in two');
    const { list, covered } = await words();
    expect(list.map((word) => [word.body.text, ...interval(word)])).toEqual([
      ['the cat', 0, 0.25],
      ['', 0.25, 0.5],
      ['&', 0.5, 1],
      ['the dog', 1, 1.5],
    ]);
    expect(covered).toBe(true);
    // One request, all or nothing.
    expect(sent.slice(from).map(({ method, path, body }) => [method, path, Object.keys(body as object).sort()])).toEqual([['PATCH', '/annotations', ['creates', 'updates']]]);
    // The new second half is selected, ready for its text.
    expect(await page.evaluate(() => window.annotTimeline.view.selected)).toBe(list[1].id);
  });

  it('merges a block with the next one of its tier in one PATCH /annotations (update and delete), texts joined with a space', async () => {
    const cat = await byText('the cat');
    await clickBlock(cat.id);
    const from = sent.length;
    // The empty second half adds nothing to the text.
    await page.keyboard.press('m');
    await announced('merged "the cat" and "" into "the cat"');
    expect((await words()).list.map((word) => [word.body.text, ...interval(word)])).toEqual([
      ['the cat', 0, 0.5],
      ['&', 0.5, 1],
      ['the dog', 1, 1.5],
    ]);
    await page.keyboard.press('m');
    await announced('merged "the cat" and "&" into "the cat &"');
    const { list, covered } = await words();
    expect(list.map((word) => [word.body.text, ...interval(word)])).toEqual([
      ['the cat &', 0, 1],
      ['the dog', 1, 1.5],
    ]);
    expect(covered).toBe(true);
    expect(sent.slice(from).map(({ method, path, body }) => [method, path, Object.keys(body as object).sort()])).toEqual([
      ['PATCH', '/annotations', ['deletes', 'updates']],
      ['PATCH', '/annotations', ['deletes', 'updates']],
    ]);
    // "the dog" has a child on A-morph: merging it away is refused, and nothing changes.
    await page.keyboard.press('m');
    await page.locator('#notice').waitFor({ state: 'visible' });
    expect(await page.locator('#refused-message').textContent()).toContain('"the dog"');
    await page.keyboard.press('Escape');
    expect((await words()).list.map((word) => word.body.text)).toEqual(['the cat &', 'the dog']);
  });

  // ---- undo and redo ----------------------------------------------------------------------------

  it('undoes and redoes the merges and the split, each through the API: the blocks and their ids come back, the parent always covered', async () => {
    const catAnd = await byText('the cat &');
    await undo();
    await announced('undid the merge of "the cat" and "&"');
    let state = await words();
    expect(state.list.map((word) => [word.body.text, ...interval(word)])).toEqual([
      ['the cat', 0, 0.5],
      ['&', 0.5, 1],
      ['the dog', 1, 1.5],
    ]);
    expect(state.covered).toBe(true);
    const amp = await byText('&');
    // The merged-away block is back under its own id, its provenance saying it was restored.
    expect(amp.provenance.was_generated_by).toBe('adapter:eaf;restored');
    await undo();
    await announced('undid the merge of "the cat" and ""');
    await undo();
    await announced('undid the split of "the cat" at 0.25 s');
    state = await words();
    expect(state.list.map((word) => word.body.text)).toEqual(['the cat', '&', 'the dog']);
    expect(state.list[0].id).toBe(catAnd.id);
    await redo();
    await announced('redid the split of "the cat" at 0.25 s');
    expect((await words()).list.map((word) => [word.body.text, ...interval(word)])).toEqual([
      ['the cat', 0, 0.25],
      ['', 0.25, 0.5],
      ['&', 0.5, 1],
      ['the dog', 1, 1.5],
    ]);
    await page.keyboard.press('Control+y');
    await announced('redid the merge of "the cat" and ""');
    expect((await words()).list.map((word) => word.body.text)).toEqual(['the cat', '&', 'the dog']);
    await undo();
    await undo();
    await announced('undid the split of "the cat" at 0.25 s');
    const back = await words();
    expect([back.list.map((word) => [word.body.text, ...interval(word)]), back.covered]).toEqual([
      [
        ['the cat', 0, 0.5],
        ['&', 0.5, 1],
        ['the dog', 1, 1.5],
      ],
      true,
    ]);
  });

  it('undoes a deletion: the annotation comes back with its id, body, times and provenance, noted as restored; redo deletes it again', async () => {
    const point = await byText('point');
    await clickBlock(point.id);
    await page.keyboard.press('Delete');
    await announced('deleted "point" on A-gesture');
    await gone(point.id);
    await undo();
    await announced('undid the deletion of "point" on A-gesture');
    const back = (await session.api('GET', `/annotations/${point.id}`)).json as Wire;
    expect([back.id, back.tier, back.body, back.reference, back.body_schema_uri]).toEqual([point.id, point.tier, point.body, point.reference, point.body_schema_uri]);
    expect(back.provenance).toEqual({ ...point.provenance, was_generated_by: 'adapter:eaf;restored' });
    await redo();
    await announced('redid the deletion of "point" on A-gesture');
    await gone(point.id);
    await undo();
    await announced('undid the deletion of "point" on A-gesture');
    expect((await session.api('GET', `/annotations/${point.id}`)).json.provenance.was_generated_by).toBe('adapter:eaf;restored');
  });

  it('undoes and redoes a creation (the block comes back under its id), a text edit, a drag and a nudge', async () => {
    // A creation.
    const lane = await laneAt('empty', 0);
    await page.mouse.click(lane.x - 150, lane.y);
    await setPlayhead(3);
    await page.keyboard.press('n');
    await page.locator('#text-editor').fill('short-lived');
    await page.locator('#text-editor').press('Enter');
    await announced('created "short-lived" on empty, 3 s to 4 s');
    const made = await byText('short-lived');
    await undo();
    await announced('undid the creation of "short-lived" on empty');
    await gone(made.id);
    await redo();
    await announced('redid the creation of "short-lived" on empty');
    const remade = (await session.api('GET', `/annotations/${made.id}`)).json as Wire;
    expect([remade.body, remade.reference]).toEqual([made.body, made.reference]);

    // A text edit.
    await page.keyboard.press('Enter');
    await page.locator('#text-editor').fill('long-lived');
    await page.locator('#text-editor').press('Enter');
    await eventually(async () => (await session.api('GET', `/annotations/${made.id}`)).json.body.text === 'long-lived', 'the new text');
    await undo();
    await announced('undid the text "long-lived"');
    expect((await session.api('GET', `/annotations/${made.id}`)).json.body.text).toBe('short-lived');
    await redo();
    await announced('redid the text "long-lived"');
    expect((await session.api('GET', `/annotations/${made.id}`)).json.body.text).toBe('long-lived');

    // A drag by the body.
    const center = (await page.evaluate((id) => window.annotTimeline.blockCenter(id), made.id))!;
    await page.mouse.move(center.x, center.y);
    await page.mouse.down();
    await page.mouse.move(center.x - 40, center.y, { steps: 5 });
    await page.mouse.up();
    await eventually(async () => (await session.api('GET', `/annotations/${made.id}`)).json.reference.interval.start.v !== 3000, 'the dragged block saved');
    await undo();
    await announced('undid the retime of "long-lived"');
    expect((await session.api('GET', `/annotations/${made.id}`)).json.reference).toEqual(remade.reference);
    await redo();
    await announced('redid the retime of "long-lived"');
    expect((await session.api('GET', `/annotations/${made.id}`)).json.reference.interval.start.v).toBeLessThan(3000);
    await undo();
    await announced('undid the retime of "long-lived"');

    // A nudge of the start edge.
    await page.keyboard.press('[');
    await page.keyboard.press('Shift+ArrowRight');
    await announced('saved start of "long-lived"');
    await undo();
    await announced('undid the start of "long-lived"');
    expect((await session.api('GET', `/annotations/${made.id}`)).json.reference).toEqual(remade.reference);
    await redo();
    await announced('redid the start of "long-lived"');
    expect((await session.api('GET', `/annotations/${made.id}`)).json.reference.interval.start.v).toBe(3010);
    await page.keyboard.press('[');
  });

  it('refuses an undo when someone else changed the annotation since (a PATCH from curl): 412, both versions in the overlay, nothing overwritten', async () => {
    const target = await byText('long-lived');
    const { etag } = await session.api('GET', `/annotations/${target.id}`);
    execFileSync('curl', ['-s', '-f', '-X', 'PATCH', `${session.served.url}/annotations/${target.id}`, '-H', 'content-type: application/json', '-H', `if-match: ${etag}`, '-d', JSON.stringify({ body: { ...target.body, text: 'changed by curl' } })]);
    await page.waitForFunction((id) => window.annotTimeline.model.items.get(id)?.wire.body.text === 'changed by curl', target.id);
    // The page's last edit was the nudge of this annotation's start: undoing it needs the version the page left.
    await undo();
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    expect(await page.locator('#notice h2').textContent()).toBe('412 · someone else changed "changed by curl" first');
    expect(await page.locator('#conflict-yours').textContent()).toBe('"long-lived" on empty, 3 s to 4 s');
    expect(await page.locator('#conflict-current').textContent()).toBe('"changed by curl" on empty, 3.01 s to 4 s');
    expect((await session.api('GET', `/annotations/${target.id}`)).json.body.text).toBe('changed by curl');
    await page.click('#conflict-discard');
    await notice.waitFor({ state: 'hidden' });
    expect((await session.api('GET', `/annotations/${target.id}`)).json.body.text).toBe('changed by curl');
    expect((await session.api('GET', `/annotations/${target.id}`)).json.reference.interval.start.v).toBe(3010);
  });

  // ---- the keys, the waveform, the file ------------------------------------------------------------

  it('lists the new keys on ?, and the undo and redo buttons say what they would undo', async () => {
    await page.keyboard.press('?');
    const help = page.locator('#help-dialog');
    await help.waitFor({ state: 'visible' });
    const keys = await help.ariaSnapshot();
    for (const words of ['new annotation on the lane at the playhead', 'delete the selected block', 'split the selected block in two at the playhead', 'merge the selected block with the next one', "undo the page's last edit", 'redo what was undone', 'the lane below becomes the one N creates on']) {
      expect(keys).toContain(words);
    }
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    expect(await page.locator('#undo-button').getAttribute('title')).toMatch(/^undo the /);
  });

  it('draws the waveform lane under the axis: the tone is drawn, the silence is a flat line', async () => {
    await page.click('#zoom-fit');
    await page.waitForFunction(() => window.annotTimeline.view.waveform?.state === 'ready' && window.annotTimeline.view.showsWaveform);
    // Nothing selected and the playhead at 0, so no mark crosses the stretches measured.
    const lane = await laneAt('empty', 0);
    await page.mouse.click(lane.x - 150, lane.y);
    await setPlayhead(0);
    await page.waitForFunction(() => window.annotTimeline.view.selected === null);
    // The waveform's ink per pixel column in its lane (under the 30 px axis), over the tone and over the silence.
    const ink = await page.evaluate(
      ({ toneUntil }) => {
        const { view } = window.annotTimeline;
        const canvas = document.getElementById('canvas') as { getContext(kind: string): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } };
        const top = 31;
        const height = view.lanesTop - 32;
        const columns = (from: number, to: number) => {
          const out: number[] = [];
          for (let x = Math.round(view.xOf(from)); x < Math.round(view.xOf(to)); x++) {
            const { data } = canvas.getContext('2d').getImageData(x, top, 1, height);
            let dark = 0;
            // The waveform's blue (#3d5a99), not the grid or the lanes' greys.
            for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 61) < 40 && Math.abs(data[i + 1] - 90) < 40 && Math.abs(data[i + 2] - 153) < 40) dark++;
            out.push(dark);
          }
          return out;
        };
        return { tone: columns(0.2, toneUntil - 0.2), silence: columns(toneUntil + 0.2, 3.8) };
      },
      { toneUntil: TONE_UNTIL },
    );
    expect(ink.tone.length).toBeGreaterThan(20);
    expect(ink.silence.length).toBeGreaterThan(20);
    // The tone fills most of the lane's height; the silence is one line (a pixel or two) through its middle.
    expect(Math.min(...ink.tone)).toBeGreaterThan(40);
    expect(Math.max(...ink.silence)).toBeLessThanOrEqual(2);
    expect(Math.min(...ink.silence)).toBeGreaterThanOrEqual(1);
  });

  it('saves every edit back to the .eaf, which reads back valid', async () => {
    await eventually(() => {
      const eaf = readFileSync(file, 'utf8');
      return eaf.includes('>changed by curl<') && eaf.includes('>wave<') && eaf.includes('>point<') && !eaf.includes('>dragged<');
    }, 'the edits in session.eaf');
    const validated = await runCli(['validate', file]);
    expect(validated.stdout).toMatch(/annotations in 6 tiers/);
    expect(validated.code).toBe(0);
  });
});
