// The page's keys, in one table: the keyboard handler reads it and the help overlay (?) lists it.
// Chosen to leave the browser's own keys alone (Alt+←/→ go back and forward, Ctrl+keys are the
// browser's but for undo and redo, which every editor has) and to feel like ELAN, Praat and media
// players: arrows move, Shift+arrows nudge, Space plays, N makes an annotation, Ctrl+Z undoes.
import { el } from './dom.js';

export type KeyAction =
  | 'previous' | 'next' | 'up' | 'down' | 'first' | 'last'
  | 'pick-start' | 'pick-end' | 'nudge-back' | 'nudge-forward'
  | 'edit' | 'play' | 'cancel' | 'help' | 'zoom-in' | 'zoom-out' | 'fit'
  | 'lane-up' | 'lane-down' | 'create' | 'delete' | 'split' | 'merge' | 'undo' | 'redo';

interface Binding {
  action: KeyAction;
  /** As the help shows them. */
  keys: string[];
  help: string;
  matches(event: KeyboardEvent): boolean;
}

const plain = (event: KeyboardEvent) => !event.ctrlKey && !event.altKey && !event.metaKey;
const key = (...names: string[]) => (event: KeyboardEvent) => plain(event) && !event.shiftKey && names.includes(event.key);
const shifted = (name: string) => (event: KeyboardEvent) => plain(event) && event.shiftKey && event.key === name;
/** Characters typed with or without Shift depending on the layout (?, +, [ and ]). */
const typed = (...chars: string[]) => (event: KeyboardEvent) => plain(event) && chars.includes(event.key);
const alt = (name: string) => (event: KeyboardEvent) => event.altKey && !event.ctrlKey && !event.metaKey && !event.shiftKey && event.key === name;
/** Ctrl, or Cmd on macOS (either is taken on every system), with a letter, Shift or not. */
const command = (letter: string, shift: boolean) => (event: KeyboardEvent) => (event.ctrlKey || event.metaKey) && !event.altKey && event.shiftKey === shift && event.key.toLowerCase() === letter;

export const KEY_BINDINGS: readonly Binding[] = [
  { action: 'previous', keys: ['←'], help: 'previous block in the tier', matches: key('ArrowLeft') },
  { action: 'next', keys: ['→'], help: 'next block in the tier', matches: key('ArrowRight') },
  { action: 'up', keys: ['↑'], help: 'block at the same time in the tier above', matches: key('ArrowUp') },
  { action: 'down', keys: ['↓'], help: 'block at the same time in the tier below', matches: key('ArrowDown') },
  { action: 'first', keys: ['Home'], help: 'first block of the tier', matches: key('Home') },
  { action: 'last', keys: ['End'], help: 'last block of the tier', matches: key('End') },
  { action: 'pick-start', keys: ['['], help: 'nudge the start edge (again: the whole block)', matches: typed('[') },
  { action: 'pick-end', keys: [']'], help: 'nudge the end edge (again: the whole block)', matches: typed(']') },
  { action: 'nudge-back', keys: ['Shift', '←'], help: 'nudge earlier by one frame (10 ms without a frame rate); saved at once', matches: shifted('ArrowLeft') },
  { action: 'nudge-forward', keys: ['Shift', '→'], help: 'nudge later by one frame (10 ms without a frame rate); saved at once', matches: shifted('ArrowRight') },
  { action: 'lane-up', keys: ['Alt', '↑'], help: 'the lane above becomes the one N creates on (empty lanes too)', matches: alt('ArrowUp') },
  { action: 'lane-down', keys: ['Alt', '↓'], help: 'the lane below becomes the one N creates on (empty lanes too)', matches: alt('ArrowDown') },
  { action: 'edit', keys: ['Enter'], help: 'edit the text (Enter saves, Escape cancels)', matches: key('Enter', 'F2') },
  { action: 'create', keys: ['N'], help: 'new annotation on the lane at the playhead: 1 s, or up to the next block (or its parent\'s end); type its text, Enter saves, Escape cancels', matches: typed('n', 'N') },
  { action: 'delete', keys: ['Delete'], help: 'delete the selected block (Backspace too)', matches: key('Delete', 'Backspace') },
  { action: 'split', keys: ['S'], help: 'split the selected block in two at the playhead (its text stays on the first)', matches: typed('s', 'S') },
  { action: 'merge', keys: ['M'], help: 'merge the selected block with the next one of its tier (texts joined with a space)', matches: typed('m', 'M') },
  { action: 'undo', keys: ['Ctrl', 'Z'], help: 'undo the page\'s last edit (⌘Z on macOS)', matches: command('z', false) },
  { action: 'redo', keys: ['Ctrl', 'Shift', 'Z'], help: 'redo what was undone (Ctrl+Y too; ⌘⇧Z on macOS)', matches: (event) => command('z', true)(event) || command('y', false)(event) },
  { action: 'play', keys: ['Space'], help: 'play or pause the media', matches: key(' ') },
  { action: 'cancel', keys: ['Escape'], help: 'close a message, drop nudges not saved yet, or let go of the edge', matches: key('Escape') },
  { action: 'zoom-in', keys: ['+'], help: 'zoom in around the selection', matches: typed('+', '=') },
  { action: 'zoom-out', keys: ['-'], help: 'zoom out', matches: typed('-') },
  { action: 'fit', keys: ['F'], help: 'fit the whole timeline', matches: typed('f', 'F') },
  { action: 'help', keys: ['?'], help: 'this list of keys', matches: typed('?') },
];

export function actionOf(event: KeyboardEvent): KeyAction | null {
  return KEY_BINDINGS.find((binding) => binding.matches(event))?.action ?? null;
}

/** The help overlay's table: every binding, with Tab described first (it is the browser's, not ours). */
export function keysTable(): HTMLTableElement {
  const row = (keys: string[], help: string) => el('tr', {}, el('th', { scope: 'row' }, ...keys.flatMap((name, index) => [...(index > 0 ? [' + '] : []), el('kbd', {}, name)])), el('td', {}, help));
  return el(
    'table',
    { className: 'keys' },
    el('tbody', {},
      row(['Tab'], 'into the timeline (and on, out of it); a click on a block also puts the keys there'),
      ...KEY_BINDINGS.map((binding) => row(binding.keys, binding.help)),
      row(['drag'], 'retime a block by its body or an edge; double-click edits its text; the wheel zooms'),
      row(['drag'], 'across an empty stretch of a lane: a new annotation over it; a click there moves the playhead and picks the lane; a drag on the axis or the waveform pans'),
    ),
  );
}
