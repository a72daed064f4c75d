// The page's keys, in one table: the keyboard handler reads it and the help overlay (?) lists it.
// Chosen to leave the browser's own keys alone (Alt+arrows go back and forward, Ctrl+keys are the
// browser's) and to feel like ELAN and media players: arrows move, Shift+arrows nudge, Space plays.
import { el } from './dom.js';

export type KeyAction =
  | 'previous' | 'next' | 'up' | 'down' | 'first' | 'last'
  | 'pick-start' | 'pick-end' | 'nudge-back' | 'nudge-forward'
  | 'edit' | 'play' | 'cancel' | 'help' | 'zoom-in' | 'zoom-out' | 'fit';

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
  { action: 'edit', keys: ['Enter'], help: 'edit the text (Enter saves, Escape cancels)', matches: key('Enter', 'F2') },
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
    ),
  );
}
