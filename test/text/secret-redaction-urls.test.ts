import { redactUrlCredentials } from '../../src/text/secret-redaction.js';
import { lendPassword, redactStoreUrl, withoutPassword } from '../../src/store/postgres-url.js';

describe('a URL\'s password never shown', () => {
  it.each([
    ['postgres://u:pw@h:5432/db?project=x: no such file', 'postgres://u:***@h:5432/db?project=x: no such file'],
    ['cannot open store postgresql://role:p@ss@host/db (it said no)', 'cannot open store postgresql://role:***@host/db (it said no)'],
    ['two: redis://:secret@q:6379/0 and postgres://a:b@c/d', 'two: redis://:***@q:6379/0 and postgres://a:***@c/d'],
    ['"postgres://u:p%40w@h/db"', '"postgres://u:***@h/db"'],
    ['no password: postgres://u@h/db and http://example.com/a:b@c', 'no password: postgres://u@h/db and http://example.com/a:b@c'],
    ['nothing here', 'nothing here'],
  ])('%s', (text, redacted) => {
    expect(redactUrlCredentials(text)).toBe(redacted);
  });

  it('redacts, strips and lends a store URL\'s password', () => {
    expect(redactStoreUrl('postgres://u:secret@h/db?project=x')).toBe('postgres://u:***@h/db?project=x');
    expect(redactStoreUrl('postgres://u:secret@[bad/db')).toBe('postgres://***@[bad/db');
    expect(withoutPassword('postgres://u:secret@h/db?project=x')).toBe('postgres://u@h/db?project=x');
    expect(lendPassword('postgres://u@h/db?project=x', 'postgres://u:secret@h/db?project=other')).toBe('postgres://u:secret@h/db?project=x');
    expect(lendPassword('postgres://u@h/db?project=x', 'postgres://v:secret@h/db')).toBe('postgres://u@h/db?project=x');
    expect(lendPassword('postgres://u@h/other', 'postgres://u:secret@h/db')).toBe('postgres://u@h/other');
    expect(lendPassword('postgres://u:own@h/db', 'postgres://u:secret@h/db')).toBe('postgres://u:own@h/db');
  });
});
