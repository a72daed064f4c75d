import type { PageConfig } from './page-config.js';

/** Where the page's shell (web/index.html) takes its config. */
const CONFIG_SLOT = '<!--annot-config-->';

/**
 * The timeline page's HTML: the shell web/index.html (built to dist/web/) with the config as JSON
 * in a script element of its own type, which the page reads and never executes. `<` is escaped so
 * that no value can close the element. (test/server/page-assets.test.ts holds the built shell to its slot.)
 */
export function pageHtml(shell: string, config: PageConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return shell.replace(CONFIG_SLOT, () => `<script type="application/json" id="annot-config">${json}</script>`);
}
