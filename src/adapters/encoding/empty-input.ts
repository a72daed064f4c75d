/**
 * An input with no text in it: nothing after a byte-order mark but spaces, tabs and line breaks
 * (zero bytes too, the other half of UTF-16's and UTF-32's). Every text reader reads it as an
 * empty document, which is valid; it is still worth a warning, because a wrong path piped through
 * `cat`, or a step that wrote nothing, would otherwise pass validation as "valid, 0 errors".
 */
export function isBlankText(bytes: Uint8Array, bomLength: number): boolean {
  for (let i = bomLength; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x00) return false;
  }
  return true;
}

export const EMPTY_INPUT_MESSAGE = 'the input is empty (nothing but white space): check the path, or the step that should have written it';
