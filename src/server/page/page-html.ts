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
<link rel="icon" href="data:,">
<style>${PAGE_CSS}</style>
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

const PAGE_CSS = `
:root { color-scheme: light; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2430; }
* { box-sizing: border-box; }
body { margin: 0; height: 100vh; display: flex; flex-direction: column; background: #fbfbfd; }
#bar { display: flex; align-items: center; gap: 14px; padding: 8px 14px; background: #1f2430; color: #e8ebf2; }
#bar strong { font-size: 15px; letter-spacing: 0.02em; }
#bar select, #bar button { font: inherit; padding: 2px 8px; border-radius: 4px; border: 1px solid #4a5163; background: #2c3242; color: #e8ebf2; }
.status { padding: 2px 8px; border-radius: 10px; background: #2fb37a33; color: #9be3c1; }
.status.busy { background: #e0913b33; color: #f3c48e; }
.status.error { background: #e05a6a44; color: #ffb3bc; }
.mono, pre, dd.mono { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
#cursor-time { margin-left: auto; color: #aab1c2; }
#media-box { padding: 8px 14px; background: #11141b; display: flex; justify-content: center; }
#media-box video { max-height: 32vh; max-width: 100%; }
#media-box audio { width: 100%; }
#main { flex: 1; display: flex; min-height: 0; }
#timeline { flex: 1; overflow-y: auto; overflow-x: hidden; position: relative; }
#canvas { display: block; }
#inspector { width: 340px; border-left: 1px solid #dde1ea; background: #fff; padding: 10px 14px; overflow: auto; }
#inspector h2 { font-size: 15px; margin: 4px 0 8px; word-break: break-word; }
#inspector h3 { font-size: 11px; text-transform: uppercase; letter-spacing: 0.06em; color: #7a8194; margin: 14px 0 4px; }
#inspector dl { display: grid; grid-template-columns: 56px 1fr; gap: 3px 8px; margin: 0; }
#inspector dt { color: #7a8194; }
#inspector dd { margin: 0; word-break: break-all; }
pre { background: #f5f6fa; border: 1px solid #e4e7ef; border-radius: 4px; padding: 6px 8px; font-size: 11px; white-space: pre-wrap; word-break: break-all; margin: 0; }
.hint { color: #7a8194; }
#conflict { position: fixed; right: 16px; bottom: 16px; width: 440px; max-height: 70vh; overflow: auto; background: #fff; border: 2px solid #e05a6a; border-radius: 8px; padding: 12px 14px; box-shadow: 0 10px 30px rgba(0,0,0,0.2); }
#conflict h2 { font-size: 14px; margin: 0 0 6px; color: #b3261e; }
#conflict h3 { font-size: 11px; text-transform: uppercase; color: #7a8194; margin: 10px 0 4px; }
#conflict .actions { display: flex; gap: 8px; margin-top: 10px; }
button { font: inherit; padding: 4px 10px; border-radius: 4px; border: 1px solid #c9ceda; background: #fff; cursor: pointer; }
button.primary { background: #4f7cff; border-color: #4f7cff; color: #fff; }
#text-editor { position: fixed; width: 240px; padding: 4px 6px; font: inherit; border: 2px solid #4f7cff; border-radius: 4px; z-index: 10; }
dialog { border: 1px solid #c9ceda; border-radius: 8px; padding: 16px; }
dialog input { font: inherit; padding: 4px 6px; margin-right: 8px; }
`;
