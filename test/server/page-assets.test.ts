import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { frameDurationOf, mediaFrameDuration } from '../../src/server/page/media-frame-duration.js';
import { pageHtml } from '../../src/server/page/page-html.js';
import { toneWav } from '../live/browser.js';
import { tempDir } from '../support/sample-annot.js';
import { startTestServer, type TestServer } from './http-client.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const VIDEO = join(ROOT, 'fixtures/tour/interview.mp4');

/** The config the page is given, read back from its HTML as the page reads it. */
async function configOf(url: string): Promise<unknown> {
  const html = await (await fetch(`${url}/`)).text();
  const json = /<script type="application\/json" id="annot-config">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? 'null');
}

describe('the timeline page as the server sends it (web/, built to dist/web/)', () => {
  const { dir, cleanup } = tempDir();
  const servers: TestServer[] = [];
  const serve = async (media?: string) => {
    const server = await startTestServer({ live: { media } });
    servers.push(server);
    return server.url;
  };
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    cleanup();
  });

  it("tells the page one frame's duration of the video it plays, read by ffprobe (10 fps: {v: 1, r: 10})", async () => {
    expect(await configOf(await serve(VIDEO))).toEqual({ media: { url: '/media', element: 'video', frame_duration: { v: 1, r: 10 } } });
  });

  it('gives no frame duration for audio, or for a video ffprobe cannot read, and no media without one', async () => {
    const wav = join(dir, 'tone.wav');
    writeFileSync(wav, toneWav(1));
    expect(await configOf(await serve(wav))).toEqual({ media: { url: '/media', element: 'audio', frame_duration: null } });
    const broken = join(dir, 'broken.mp4');
    writeFileSync(broken, 'not a video');
    expect(await configOf(await serve(broken))).toEqual({ media: { url: '/media', element: 'video', frame_duration: null } });
    expect(await configOf(await serve())).toEqual({ media: null });
  });

  it('serves the built scripts and stylesheet from the package, and nothing else of the folder', async () => {
    const url = await serve();
    const html = await (await fetch(`${url}/`)).text();
    expect(html).toContain('<script type="module" src="/page/app.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/page/timeline.css">');
    expect(html).not.toContain('<!--annot-config-->');
    for (const [file, type] of [['app.js', /^text\/javascript/], ['keyboard.js', /^text\/javascript/], ['timeline.css', /^text\/css/]] as const) {
      const response = await fetch(`${url}/page/${file}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(type);
    }
    // The page's own imports of src are types only: nothing of the server is in the browser's code.
    expect(await (await fetch(`${url}/page/wire.js`)).text()).toBe('export {};\n');
    expect((await fetch(`${url}/page/index.html`)).status).toBe(404);
  });
});

describe('frameDurationOf (ffprobe frame rates as one frame\'s duration)', () => {
  it.each([
    ['25/1', { v: 1, r: 25 }],
    ['30000/1001', { v: 1001, r: 30000 }],
    ['24000/1001', { v: 1001, r: 24000 }],
  ])('%s fps → %o', (rate, duration) => {
    expect(frameDurationOf(rate)).toEqual(duration);
  });

  it.each(['0/0', '', '1/0', '90000/1', '1/2', 'abc', undefined])('%p is no frame rate a person steps through', (rate) => {
    expect(frameDurationOf(rate)).toBeUndefined();
  });

  it('reads nothing from a file that is not media, or that is missing', async () => {
    const { dir, cleanup } = tempDir();
    try {
      copyFileSync(join(ROOT, 'fixtures/tour/interview.eaf'), join(dir, 'x.mp4'));
      expect(await mediaFrameDuration(join(dir, 'x.mp4'))).toBeUndefined();
      expect(await mediaFrameDuration(join(dir, 'missing.mp4'))).toBeUndefined();
    } finally {
      cleanup();
    }
  });
});

describe('pageHtml', () => {
  it('puts the config into the shell, with < escaped so that no value can close the script element', () => {
    const html = pageHtml('<head><!--annot-config--></head>', { media: { url: '/media?</script><b>', element: 'video', frame_duration: null } });
    expect(html).toBe('<head><script type="application/json" id="annot-config">{"media":{"url":"/media?\\u003c/script>\\u003cb>","element":"video","frame_duration":null}}</script></head>');
  });
});
