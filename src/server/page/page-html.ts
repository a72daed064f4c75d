/** What the page is told by the server that serves it. */
export interface PageConfig {
  /** The media to play, or null for none. */
  readonly media: { readonly url: string; readonly element: 'video' | 'audio' } | null;
}

/**
 * The timeline page's HTML: a shell the browser code (dist/page/app.js) fills in. The config is
 * JSON in a script element of its own type, read by the page, never executed.
 */
export function pageHtml(config: PageConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>annot timeline</title>
<link rel="stylesheet" href="/page/style.css">
<script type="application/json" id="annot-config">${json}</script>
<script type="module" src="/page/app.js"></script>
</head>
<body>
<header id="bar">
  <strong>annot</strong>
  <span id="status" class="status">loading…</span>
  <label>time <select id="time-format"><option value="seconds">seconds</option><option value="timecode">timecode</option></select></label>
  <button id="zoom-fit" type="button" title="show the whole timeline">fit</button>
  <span id="cursor-time" class="mono"></span>
</header>
<div id="media-box" hidden></div>
<main id="main">
  <div id="timeline"><canvas id="canvas"></canvas></div>
  <aside id="inspector"><p class="hint">Select a block to see its wire form, provenance and ETag. Drag its edges or body to retime; double-click to edit its text. Wheel zooms, shift+wheel or drag on the axis pans.</p></aside>
</main>
<div id="conflict" hidden></div>
<dialog id="token-dialog"><form method="dialog"><p>This server needs a token.</p><input id="token-input" type="password" autocomplete="current-password" placeholder="token"><button id="token-ok" value="ok">Connect</button></form></dialog>
</body>
</html>
`;
}
