import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeAnnotation, mediaRef } from '../../src/model/annotation.js';
import { makeTier } from '../../src/model/tier.js';
import { ResponseBuffers } from '../../src/server/response-buffers.js';
import { startServer } from '../../src/server/serve.js';
import { SqliteStore } from '../../src/store/sqlite.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

// The window route writes its answers into memory lent by a pool, given back when the response
// finishes. What must hold: memory is never lent twice while a response may still be writing it,
// it is lent again once that response finished, and answers served at once all keep their bytes.

async function listen(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handle);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('ResponseBuffers', () => {
  it('lends memory again only after the response it was lent to has finished', async () => {
    const buffers = new ResponseBuffers();
    const lent: ArrayBuffer[] = [];
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstTaken!: () => void;
    const firstTakenSignal = new Promise<void>((resolve) => (firstTaken = resolve));
    const { server, url } = await listen((request, response) => {
      const body = buffers.take(10_000, response);
      body.fill(request.url === '/first' ? 0x61 : 0x62);
      lent.push(body.buffer as ArrayBuffer);
      if (request.url === '/first') {
        firstTaken();
        void firstHeld.then(() => response.end(body));
      } else {
        response.end(body);
      }
    });
    try {
      const first = fetch(`${url}/first`).then((r) => r.text());
      await firstTakenSignal;
      // While the first response is unfinished, a second one gets other memory.
      expect(await (await fetch(`${url}/second`)).text()).toBe('b'.repeat(10_000));
      expect(lent[1]).not.toBe(lent[0]);
      releaseFirst();
      expect(await first).toBe('a'.repeat(10_000));
      // Both finished: their memory is spare, and the next answer reuses it rather than allocating.
      expect(await (await fetch(`${url}/third`)).text()).toBe('b'.repeat(10_000));
      expect([lent[0], lent[1]]).toContain(lent[2]);
    } finally {
      releaseFirst();
      server.close();
      await once(server, 'close');
    }
  });

  it('gives small answers node\'s own shared pool and sizes the rest by powers of two', async () => {
    const buffers = new ResponseBuffers();
    const seen: Buffer[] = [];
    const { server, url } = await listen((request, response) => {
      const length = Number(request.url?.slice(1));
      const body = buffers.take(length, response);
      body.fill(0x78);
      seen.push(body);
      response.end(body);
    });
    try {
      for (const length of [100, 5000, 9000]) expect((await (await fetch(`${url}/${length}`)).text()).length).toBe(length);
      expect(seen.map((body) => body.length)).toEqual([100, 5000, 9000]);
      expect(seen[1].buffer.byteLength).toBe(8192);
      expect(seen[2].buffer.byteLength).toBe(16384);
    } finally {
      server.close();
      await once(server, 'close');
    }
  });
});

describe('GET /annotations with many answers in flight', () => {
  it('answers every window with its own bytes while the memory is reused', async () => {
    const store = await SqliteStore.open(':memory:');
    await store.addTier(makeTier({ name: 'words' }));
    const generatedAt = new RationalTime(1_700_000_000_000, 1000);
    await store.addMany(Array.from({ length: 3000 }, (_, i) => makeAnnotation({
      tier: 'words',
      reference: mediaRef('talk.wav', new TimeInterval(new RationalTime(i * 100, 1000), new RationalTime(i * 100 + 400, 1000))),
      body: { text: `w${i}` },
      body_schema_uri: 'annot://schema/word/v1',
      provenance: { was_generated_by: 'test', generated_at_time: generatedAt },
    })));
    const server = await startServer({ store, log: () => {} });
    try {
      const windowUrl = (start: number): string => `${server.url}/annotations?start=${start}&end=${start + 10}`;
      // One at a time first: the expected bytes, and enough window reads to warm the interval index.
      const expected = new Map<number, string>();
      for (let start = 0; start < 290; start += 10) expected.set(start, await (await fetch(windowUrl(start))).text());
      const starts = Array.from({ length: 400 }, (_, i) => (i * 7919) % 29 * 10);
      const answers = await Promise.all(starts.map(async (start) => [start, await (await fetch(windowUrl(start))).text()] as const));
      for (const [start, body] of answers) {
        expect(JSON.parse(body)).toHaveLength(start === 0 ? 100 : 103);
        expect(body).toBe(expected.get(start));
      }
    } finally {
      await server.close();
      await store.close();
    }
  });
});
