import { annotationToWire } from '../../src/model/wire.js';
import { StoreFormatError } from '../../src/store/errors.js';
import {
  JSON_BYTES_CODEC,
  JSON_TEXT_CODEC,
  MAPPING_META_KEY,
  MAPPING_TIERS_KEY,
  MappingStore,
  type MappingStoreOptions,
} from '../../src/store/mapping.js';
import { ann, collect, idFor, ids, iv, point, refAnn, tier, wire } from './fixtures.js';
import { describeStoreContract } from './contract.js';

describeStoreContract('mapping (plain Map)', async () => new MappingStore(new Map()));
describeStoreContract('mapping (Uint8Array values)', async () => new MappingStore(new Map<string, Uint8Array>(), { codec: JSON_BYTES_CODEC }));

/** A Map whose writes fail for the keys `failOn` picks, like a full disk or a lost connection. */
class FlakyMap<V> extends Map<string, V> {
  failOn: (key: string) => boolean = () => false;
  deleteFails = false;

  override set(key: string, value: V): this {
    if (this.failOn(key)) throw new Error(`disk full writing ${key}`);
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    if (this.deleteFails) throw new Error(`cannot delete ${key}`);
    return super.delete(key);
  }
}

async function filledStore<V>(map: Map<string, V>, options?: MappingStoreOptions<V>): Promise<MappingStore<V>> {
  const store = new MappingStore(map, options);
  await store.addTier(tier('words', { metadata: { lang: 'fr' } }));
  await store.addTier(tier('notes'));
  await store.addTier(tier('syllables', { stereotype: 'INCLUDED_IN', parent: 'words' }));
  await store.setMeta('title', 'Session 1');
  await store.addMany([
    ann(iv(1, 2, 2), { id: 3, confidence: 0.94 }),
    ann(point(7, 1000), { id: 1 }),
    refAnn(idFor(3), { id: 2 }),
    ann(iv(0, 48000, 48000), { id: 4, tier: 'syllables' }),
  ]);
  return store;
}

describe('MappingStore layout', () => {
  it('keeps one key per annotation id holding its wire JSON, plus the tiers and metadata keys', async () => {
    const map = new Map<string, unknown>();
    await filledStore(map);
    expect([...map.keys()].sort()).toEqual([idFor(1), idFor(2), idFor(3), idFor(4), MAPPING_META_KEY, MAPPING_TIERS_KEY].sort());
    expect(map.get(idFor(3))).toEqual(annotationToWire(ann(iv(1, 2, 2), { id: 3, confidence: 0.94 })));
    expect(map.get(MAPPING_TIERS_KEY)).toEqual({
      tiers: [
        { name: 'words', stereotype: 'NONE', parent: null, metadata: { lang: 'fr' } },
        { name: 'notes', stereotype: 'NONE', parent: null, metadata: {} },
        { name: 'syllables', stereotype: 'INCLUDED_IN', parent: 'words', metadata: {} },
      ],
    });
    expect(map.get(MAPPING_META_KEY)).toEqual({ meta: { title: 'Session 1' } });
  });

  it('writes UTF-8 JSON bytes through the bytes codec and text through the text codec', async () => {
    const bytes = new Map<string, Uint8Array>();
    const text = new Map<string, string>();
    const a = ann(iv(0, 1), { id: 1, label: 'née 🎵' });
    for (const [map, codec] of [[bytes, JSON_BYTES_CODEC], [text, JSON_TEXT_CODEC]] as const) {
      const store = new MappingStore(map as Map<string, never>, { codec: codec as never });
      await store.addTier(tier('words'));
      await store.add(a);
    }
    expect(bytes.get(idFor(1))).toBeInstanceOf(Uint8Array);
    expect(JSON.parse(new TextDecoder().decode(bytes.get(idFor(1))))).toEqual(annotationToWire(a));
    expect(JSON.parse(text.get(idFor(1)) as string)).toEqual(annotationToWire(a));
  });

  it('removes the keys of deleted annotations, of deleteAt and of annotations setAt drops', async () => {
    const map = new Map<string, unknown>();
    const store = await filledStore(map);
    await store.delete(idFor(2));
    await store.deleteAt(point(7, 1000));
    await store.setAt(iv(1, 2, 2), [ann(iv(2, 4, 4), { id: 9 })]);
    expect([...map.keys()].filter((k) => !k.startsWith('__')).sort()).toEqual([idFor(4), idFor(9)]);
  });
});

describe('MappingStore reload', () => {
  it.each([
    ['a plain Map', undefined],
    ['a byte-valued Map', { codec: JSON_BYTES_CODEC }],
  ])('reads back from %s everything a first store wrote, in the same order', async (_name, options) => {
    const map = new Map<string, unknown>();
    const first = await filledStore(map, options as MappingStoreOptions<unknown> | undefined);
    await first.update(ann(iv(1, 2, 2), { id: 3, label: 'revised' }));
    const second = new MappingStore(map, options as MappingStoreOptions<unknown> | undefined);
    expect((await collect(second.all())).map(wire)).toEqual((await collect(first.all())).map(wire));
    expect(ids(await collect(second.all()))).toEqual([3, 1, 2, 4].map(idFor));
    expect(await second.listTiers()).toEqual(await first.listTiers());
    expect(await second.listMeta()).toEqual({ title: 'Session 1' });
    expect(ids(await second.intersects(iv(0, 1)))).toEqual([idFor(4), idFor(1), idFor(3)]);
    expect(second.kind).toBe('mapping');
  });

  it('keeps its own snapshot: a second store over the same map does not see later writes', async () => {
    const map = new Map<string, unknown>();
    const first = await filledStore(map);
    const second = new MappingStore(map);
    await first.add(ann(iv(5, 6), { id: 8 }));
    expect(await second.get(idFor(8))).toBeNull();
  });
});

describe('MappingStore refuses a map it cannot read', () => {
  it('names a foreign key', () => {
    const map = new Map<string, unknown>([['settings', {}]]);
    expect(() => new MappingStore(map)).toThrow(StoreFormatError);
    expect(() => new MappingStore(map)).toThrow(/"settings".*neither an annotation id/);
  });

  it('names a key whose value is not an annotation', () => {
    const map = new Map<string, unknown>([[idFor(1), { id: idFor(1), tier: 'words' }]]);
    expect(() => new MappingStore(map)).toThrow(new RegExp(`key ${idFor(1)} is not an annotation`));
  });

  it('refuses an annotation stored under another id', async () => {
    const map = new Map<string, unknown>();
    await filledStore(map);
    map.set(idFor(7), map.get(idFor(1)));
    expect(() => new MappingStore(map)).toThrow(/has id .*under its own id/);
  });

  it('refuses annotations on tiers the map does not register', () => {
    const map = new Map<string, unknown>([[idFor(1), annotationToWire(ann(iv(0, 1), { id: 1 }))]]);
    expect(() => new MappingStore(map)).toThrow(/not registered|words/);
    expect(() => new MappingStore(map)).toThrow(StoreFormatError);
  });

  it('says when bytes do not decode with the codec', () => {
    const map = new Map<string, Uint8Array>([[MAPPING_TIERS_KEY, new Uint8Array([0xff, 0xfe])]]);
    expect(() => new MappingStore(map, { codec: JSON_BYTES_CODEC })).toThrow(/cannot decode the value at key "__annot_tiers__"/);
  });

  it('refuses malformed tiers and metadata values', () => {
    expect(() => new MappingStore(new Map<string, unknown>([[MAPPING_TIERS_KEY, { tiers: [{ name: '' }] }]]))).toThrow(/tiers\[0\]/);
    expect(() => new MappingStore(new Map<string, unknown>([[MAPPING_META_KEY, { meta: { n: 1 } }]]))).toThrow(StoreFormatError);
  });
});

describe('MappingStore writes through first', () => {
  async function flakyStore() {
    const map = new FlakyMap<unknown>();
    const store = new MappingStore(map);
    await store.addTier(tier('words'));
    await store.add(ann(iv(0, 10), { id: 1, label: 'kept' }));
    return { map, store };
  }

  it('leaves the index and the map untouched when adding fails', async () => {
    const { map, store } = await flakyStore();
    map.failOn = (key) => key === idFor(2);
    await expect(store.add(ann(iv(0, 10), { id: 2 }))).rejects.toThrow(/disk full/);
    expect(await store.get(idFor(2))).toBeNull();
    expect(ids(await store.getAt(iv(0, 10)))).toEqual([idFor(1)]);
    expect(map.has(idFor(2))).toBe(false);
  });

  it('removes the keys a failed batch had already written and indexes nothing of it', async () => {
    const { map, store } = await flakyStore();
    map.failOn = (key) => key === idFor(4);
    await expect(store.addMany([2, 3, 4, 5].map((n) => ann(iv(n, n + 1), { id: n })))).rejects.toThrow(/disk full/);
    expect([...map.keys()].filter((k) => !k.startsWith('__'))).toEqual([idFor(1)]);
    expect(await store.count()).toBe(1);
    expect(ids(await store.intersects(iv(2, 6)))).toEqual([idFor(1)]);
  });

  it('keeps the old annotation in map and index when an update fails', async () => {
    const { map, store } = await flakyStore();
    const before = map.get(idFor(1));
    map.failOn = (key) => key === idFor(1);
    await expect(store.update(ann(iv(50, 60), { id: 1, label: 'lost' }))).rejects.toThrow(/disk full/);
    expect((await store.get(idFor(1)))?.body).toEqual({ text: 'kept' });
    expect(ids(await store.intersects(iv(0, 10)))).toEqual([idFor(1)]);
    expect(map.get(idFor(1))).toBe(before);
  });

  it('keeps an annotation whose deletion fails', async () => {
    const { map, store } = await flakyStore();
    map.deleteFails = true;
    await expect(store.delete(idFor(1))).rejects.toThrow(/cannot delete/);
    expect(ids(await store.intersects(iv(0, 10)))).toEqual([idFor(1)]);
    await expect(store.deleteAt(iv(0, 10))).rejects.toThrow(/cannot delete/);
    expect(await store.count()).toBe(1);
  });

  it('keeps the old tiers and metadata when their key cannot be written', async () => {
    const { map, store } = await flakyStore();
    map.failOn = (key) => key.startsWith('__annot_');
    await expect(store.addTier(tier('notes'))).rejects.toThrow(/disk full/);
    await expect(store.setMeta('a', 'b')).rejects.toThrow(/disk full/);
    expect(await store.getTier('notes')).toBeNull();
    expect(await store.getMeta('a')).toBeNull();
  });
});
