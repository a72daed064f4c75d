// A small stand-in for fal.ai's queue API for the benchmarks: submit, status, result, cancel and
// the generated files, over real HTTP on 127.0.0.1, each request taking `latencyMs`. The tests'
// fake (test/support/fake-fal-server.ts) also injects failures and records every exchange; the
// benchmarks only need the happy path, run as plain JavaScript, and must not depend on test/.
import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/** Starts the server; `latencyMs` is the time from submission to completion. */
export async function startFakeFalServer({ latencyMs = 0 } = {}) {
  const requests = new Map();
  const files = new Map();
  const submitted = [];
  const state = { inFlight: 0, maxInFlight: 0 };
  let counter = 0;
  let url = '';

  const send = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const settle = (r) => {
    if (r.settled) return;
    r.settled = true;
    state.inFlight--;
  };
  const addFile = (bytes, name) => {
    const path = `/files/${++counter}/${name}`;
    files.set(path, bytes);
    return `${url}${path}`;
  };
  const outputOf = (args) => {
    const content = {};
    for (const key of Object.keys(args).sort()) {
      const value = args[key];
      let local;
      try {
        local = typeof value === 'string' ? files.get(new URL(value).pathname) : undefined;
      } catch {
        local = undefined;
      }
      content[key] = local ? `sha256:${createHash('sha256').update(local).digest('hex')}` : value;
    }
    const bytes = Buffer.from(`fake-fal ${JSON.stringify(content)}`);
    if (typeof args.text === 'string') return { audio: { url: addFile(bytes, 'speech.mp3'), content_type: 'audio/mpeg' } };
    if (args.audio_url !== undefined || args.image_url !== undefined) return { video: { url: addFile(bytes, 'video.mp4'), content_type: 'video/mp4' } };
    return { images: [{ url: addFile(bytes, 'image.jpeg'), width: 1024, height: 576, content_type: 'image/jpeg' }], seed: 42 };
  };

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && files.has(path)) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(files.get(path));
      }
      const m = /^\/(.+)\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(path);
      if (m) {
        const r = requests.get(m[2]);
        if (!r) return send(res, 404, { detail: 'request not found' });
        const done = r.cancelled || Date.now() - r.at >= latencyMs;
        if (m[3] === '/cancel') {
          r.cancelled = true;
          settle(r);
          return send(res, 202, { status: 'CANCELLATION_REQUESTED' });
        }
        if (m[3] === '/status') return send(res, 200, { status: done ? 'COMPLETED' : 'IN_PROGRESS', request_id: r.id, logs: [] });
        if (!done) return send(res, 400, { detail: 'Request is still in progress' });
        settle(r);
        r.output ??= outputOf(r.args);
        return send(res, 200, r.output);
      }
      if (req.method !== 'POST') return send(res, 404, { detail: 'no route' });
      const model = path.slice(1);
      const args = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      const r = { id: randomUUID(), model, args, at: Date.now(), cancelled: false, settled: false };
      requests.set(r.id, r);
      submitted.push({ request_id: r.id, model_id: model, args });
      state.maxInFlight = Math.max(state.maxInFlight, ++state.inFlight);
      const base = `${url}/${model}/requests/${r.id}`;
      send(res, 200, { request_id: r.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel`, queue_position: 0 });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    get maxInFlight() {
      return state.maxInFlight;
    },
    submissions: () => [...submitted],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
