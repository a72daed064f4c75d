import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Longest key and id text worth keeping: real ids are short; anything longer is not answered by id. */
const MAX_CAPTURE = 256;

const STRING_SPECIAL = /["\\]/g;

/**
 * Finds the `"id"` member of a JSON object fed to it in pieces, without keeping the text: an
 * oversized message is thrown away as it arrives, yet its error can still carry the request's id,
 * so the client's call fails at once instead of waiting for an answer that never comes. Only
 * members of the outermost object count (an `"id"` inside params is not the request's); the
 * last one wins, as JSON.parse would have it. A text that is not an object yields no id.
 */
export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** What the scanner expects next in the outermost object. */
  private expecting: 'key' | 'colon' | 'value' | 'comma' = 'key';
  private key = '';
  private capturing: 'key' | 'id' | null = null;
  private idText = '';
  private found: RequestId | null = null;
  private broken = false;

  /** Feeds the next piece of the message's text (bytes as UTF-8, or a string). */
  feed(piece: Buffer | string): void {
    const text = typeof piece === 'string' ? piece : piece.toString('latin1');
    for (let i = 0; i < text.length && !this.broken; i++) {
      // The bulk of an oversized message is string content: skip to its next quote or backslash natively.
      if (this.inString && this.capturing === null && !this.escaped) {
        STRING_SPECIAL.lastIndex = i;
        const next = STRING_SPECIAL.exec(text);
        if (next === null) return;
        i = next.index;
      }
      this.step(text[i]);
    }
  }

  /** The id found so far (string or number), or null. */
  get id(): RequestId | null {
    return this.found;
  }

  private step(char: string): void {
    if (this.inString) {
      this.stringStep(char);
      return;
    }
    if (this.depth === 0) {
      if (char === '{') this.depth = 1;
      else if (!isSpace(char)) this.broken = true;
      return;
    }
    if (this.depth > 1) {
      if (char === '"') this.inString = true;
      else if (char === '{' || char === '[') this.depth++;
      else if (char === '}' || char === ']') this.depth--;
      return;
    }
    this.outermostStep(char);
  }

  /** A character in the outermost object, outside any string. */
  private outermostStep(char: string): void {
    if (this.capturing === 'id' && (char === ',' || char === '}')) this.endIdValue();
    if (char === '"') {
      this.inString = true;
      if (this.expecting === 'key') this.startCapture('key');
      else if (this.expecting === 'value' && this.key === 'id') this.startCapture('id', char);
      return;
    }
    if (char === '{' || char === '[') {
      this.depth++;
      return;
    }
    if (char === ':' && this.expecting === 'colon') {
      this.expecting = 'value';
      return;
    }
    if (char === ',') {
      this.expecting = 'key';
      return;
    }
    if (char === '}') {
      this.depth = 0;
      this.broken = true; // the object is over: nothing after it counts
      return;
    }
    if (this.expecting === 'value' && this.key === 'id' && !isSpace(char)) {
      if (this.capturing !== 'id') this.startCapture('id');
      this.idText += char;
    }
  }

  private stringStep(char: string): void {
    if (this.capturing !== null) this.capture(char);
    if (this.escaped) {
      this.escaped = false;
      return;
    }
    if (char === '\\') {
      this.escaped = true;
      return;
    }
    if (char !== '"') return;
    this.inString = false;
    if (this.capturing === 'key') {
      this.key = this.keyText();
      this.capturing = null;
      this.expecting = 'colon';
    } else if (this.capturing === 'id') {
      this.endIdValue();
    }
  }

  private startCapture(what: 'key' | 'id', first = ''): void {
    this.capturing = what;
    if (what === 'key') this.key = '';
    else this.idText = first;
  }

  private capture(char: string): void {
    if (this.capturing === 'key') {
      if (this.key.length <= MAX_CAPTURE) this.key += char;
    } else if (this.idText.length <= MAX_CAPTURE) {
      this.idText += char;
    }
  }

  /** The key just read, without its closing quote. */
  private keyText(): string {
    return this.key.endsWith('"') ? this.key.slice(0, -1) : this.key;
  }

  private endIdValue(): void {
    this.capturing = null;
    this.expecting = 'comma';
    this.found = null;
    if (this.idText.length > MAX_CAPTURE) return;
    try {
      const value: unknown = JSON.parse(Buffer.from(this.idText, 'latin1').toString('utf8'));
      if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) this.found = value;
    } catch {
      // not a readable id: answered with id null
    }
  }
}

function isSpace(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}
