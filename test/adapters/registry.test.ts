import type { FormatAdapter } from '../../src/adapters/adapter.js';
import { BUILTIN_FORMATS } from '../../src/adapters/builtin.js';
import { getAdapter, inferFormat, listAdapters, registerAdapter } from '../../src/adapters/registry.js';

// Each test file has its own module registry, so this file sees the registry before any lookup.
describe('the format registry', () => {
  const plugin: FormatAdapter = {
    name: 'cue_sheet',
    extensions: ['.cue'],
    mediaTypes: ['text/x-cue'],
    description: 'a plug-in format registered before the first lookup',
    bodySchemas: [],
    sniff: (head) => head.toString('utf8').startsWith('FILE '),
    codec: () => Promise.reject(new Error('not used here')),
  };

  it('registers the built-in formats itself, before a plug-in registered ahead of the first lookup, in list-formats order', () => {
    registerAdapter(plugin);
    expect(listAdapters().map((adapter) => adapter.name)).toEqual([...BUILTIN_FORMATS.map((format) => format.name), 'cue_sheet']);
  });

  it('finds built-in formats by name, alias, extension and content without anyone registering them', () => {
    expect(getAdapter('vtt').name).toBe('webvtt');
    expect(inferFormat({ path: 'talk.srt' }).name).toBe('srt');
    expect(inferFormat({ head: Buffer.from('WEBVTT\n\n') }).name).toBe('webvtt');
    expect(inferFormat({ path: 'x.cue' })).toBe(plugin);
  });

  it('lets a plug-in replace a built-in format under its name, in its place', () => {
    const replacement = { ...getAdapter('sbv'), description: 'a plug-in SBV' };
    registerAdapter(replacement);
    expect(getAdapter('sbv')).toBe(replacement);
    expect(listAdapters().filter((adapter) => adapter.name === 'sbv')).toHaveLength(1);
  });
});
