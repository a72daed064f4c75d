/* global window, document -- the functions given to page.evaluate run in the page */
// Takes the README's screenshot of the timeline page, docs/timeline-waveform.png, from a real served file:
// `annot serve fixtures/tour/interview.eaf --media fixtures/tour/interview.mp4 --no-save` opened in Debian's
// chromium, the guest's first utterance selected and the playhead inside it, so the waveform lane shows the
// tones of the two speakers under the axis with the selected block's bounds across it.
// Run after `npm run build`: node scripts/readme-screenshot.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = mkdtempSync(join(tmpdir(), 'annot-screenshot-'));
const served = spawn(process.execPath, [join(root, 'bin/run.js'), 'serve', 'fixtures/tour/interview.eaf', '--media', 'fixtures/tour/interview.mp4', '--no-save'], {
  cwd: root,
  env: { ...process.env, ANNOT_CACHE_DIR: cache, ANNOT_TOKEN: '' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    served.stdout.on('data', (chunk) => {
      const found = /listening on (\S+)/.exec(String(chunk));
      if (found) resolve(found[1]);
    });
    served.on('exit', (code) => reject(new Error(`annot serve exited with ${code}`)));
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 560 } });
  await page.goto(`${url}/`);
  await page.waitForFunction(() => window.annotTimeline?.ready === true);
  await page.click('#zoom-fit');
  await page.waitForFunction(() => window.annotTimeline.view.waveform?.state === 'ready');
  await page.focus('#blocks');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.evaluate(() => {
    document.getElementById('media').currentTime = 3.4;
  });
  await page.waitForFunction(() => window.annotTimeline.view.playhead === 3.4);
  // A frame or two for the finer peaks the zoom asked for.
  await page.waitForTimeout(500);
  const out = join(root, 'docs', 'timeline-waveform.png');
  await page.screenshot({ path: out });
  await browser.close();
  console.log(`wrote ${out}`);
} finally {
  served.kill('SIGTERM');
  rmSync(cache, { recursive: true, force: true });
}
