import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';

/**
 * A WebVTT file as Chromium reads it: each cue of a `<track>` on a `<video>`, through the
 * TextTrack API. `text` is what a person sees (the DOM getCueAsHTML builds, ruby text left out,
 * as annot's plain text leaves it out), `voice` the first voice span's name, and the settings as
 * VTTCue has them.
 */
export interface BrowserCue {
  readonly id: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly voice: string | null;
  readonly settings: {
    readonly line: number | string;
    readonly position: number | string;
    readonly size: number;
    readonly align: string;
    readonly vertical: string;
    readonly region: string | null;
  };
}

/** One browser and one loopback server for a test file: `read(path)` loads the file as a track. */
export class ChromiumTracks {
  private files = new Map<string, string>();

  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly server: Server,
    private readonly origin: string,
  ) {}

  static async start(executablePath: string): Promise<ChromiumTracks> {
    const files = new Map<string, string>();
    const server = createServer((request, response) => {
      if (request.url === '/') {
        response.setHeader('content-type', 'text/html; charset=utf-8');
        response.end('<!doctype html><title>tracks</title><video></video>');
        return;
      }
      const path = files.get(request.url ?? '');
      if (path === undefined) {
        response.statusCode = 404;
        response.end();
        return;
      }
      response.setHeader('content-type', 'text/vtt; charset=utf-8');
      response.end(readFileSync(path));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const browser = await chromium.launch({
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const tracks = new ChromiumTracks(browser, page, server, origin);
    tracks.files = files;
    return tracks;
  }

  async read(path: string): Promise<BrowserCue[]> {
    const url = `/track-${this.files.size}.vtt`;
    this.files.set(url, path);
    return this.page.evaluate(`(${READ_TRACK})(${JSON.stringify(url)})`) as Promise<BrowserCue[]>;
  }

  async stop(): Promise<void> {
    await this.browser.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get url(): string {
    return this.origin;
  }
}

/**
 * The page's side, in the browser's own JavaScript (this project's TypeScript knows no DOM): a
 * `<track>` on the page's `<video>`, loaded, then its cues.
 */
const READ_TRACK = `async (src) => {
  const video = document.querySelector('video');
  video.replaceChildren();
  const track = document.createElement('track');
  track.kind = 'subtitles';
  track.src = src;
  video.appendChild(track);
  track.track.mode = 'hidden';
  await new Promise((resolve, reject) => {
    track.addEventListener('load', () => resolve());
    track.addEventListener('error', () => reject(new Error('Chromium did not load ' + src + ' as a track')));
  });
  return [...(track.track.cues || [])].map((cue) => {
    const html = cue.getCueAsHTML();
    const voiceSpan = html.querySelector('span[title]');
    for (const rt of html.querySelectorAll('rt')) rt.remove();
    return {
      id: cue.id,
      start: cue.startTime,
      end: cue.endTime,
      text: html.textContent || '',
      voice: voiceSpan === null ? null : voiceSpan.getAttribute('title'),
      settings: { line: cue.line, position: cue.position, size: cue.size, align: cue.align, vertical: cue.vertical, region: cue.region ? cue.region.id : null },
    };
  });
}`;
