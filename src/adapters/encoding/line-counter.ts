/**
 * The line and column reached in a text fed piece by piece, counting line breaks as the readers
 * do (LF, CRLF and a bare CR each end a line, a CRLF split between two pieces once). The column
 * counts UTF-16 code units from 1, as the readers' own positions do.
 */
export class LineCounter {
  private line = 1;
  private column = 1;
  private carriageReturn = false;

  add(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 0x0a && this.carriageReturn) {
        this.carriageReturn = false;
        continue;
      }
      this.carriageReturn = code === 0x0d;
      if (code === 0x0a || code === 0x0d) {
        this.line++;
        this.column = 1;
      } else {
        this.column++;
      }
    }
  }

  position(): { line: number; column: number } {
    return { line: this.line, column: this.column };
  }
}
