/**
 * Python's `str.encode(encoding, errors)` for the codecs Node can write (UTF-8, Latin-1, ASCII,
 * UTF-16): what `file.manage_file`'s `encoding`/`encoding_errors` do to `contents`. Another
 * codec is refused with Python's `unknown encoding` text rather than written wrongly.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

const UTF8 = new Set(['utf-8', 'utf8', 'u8', 'utf', 'cp65001']);
const LATIN1 = new Set(['latin-1', 'latin1', 'latin', 'l1', 'iso-8859-1', 'iso8859-1', '8859', 'cp819']);
const ASCII = new Set(['ascii', 'us-ascii', '646']);

/** A character beyond a single-byte codec's range, per Python's error handlers. */
function substitute(ch: string, errors: string, fail: () => never): string {
  const cp = ch.codePointAt(0) as number;
  if (errors === 'ignore') return '';
  if (errors === 'replace') return '?';
  if (errors === 'xmlcharrefreplace') return `&#${cp};`;
  if (errors === 'backslashreplace') {
    if (cp < 0x100) return `\\x${cp.toString(16).padStart(2, '0')}`;
    if (cp < 0x10000) return `\\u${cp.toString(16).padStart(4, '0')}`;
    return `\\U${cp.toString(16).padStart(8, '0')}`;
  }
  return fail();
}

function singleByte(text: string, codec: string, limit: number, errors: string): Buffer {
  let out = '';
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (cp < limit) out += ch;
    else {
      const hex = cp < 0x100 ? `\\x${cp.toString(16)}` : `\\u${cp.toString(16).padStart(4, '0')}`;
      out += substitute(ch, errors, () => {
        throw new SALT_ERR_EXEC_COMMAND(
          `'${codec}' codec can't encode character '${hex}' in position ${i}: ordinal not in range(${limit})`,
        );
      });
    }
    i += 1;
  }
  return Buffer.from(out, 'latin1');
}

/** `text.encode(encoding, errors)` as Python does it, for the codecs above. */
export function pyEncode(text: string, encoding: string, errors = 'strict'): Buffer {
  const name = encoding.trim().toLowerCase().replaceAll('_', '-');
  if (UTF8.has(name)) return Buffer.from(text, 'utf8');
  if (LATIN1.has(name)) return singleByte(text, 'latin-1', 0x100, errors);
  if (ASCII.has(name)) return singleByte(text, 'ascii', 0x80, errors);
  if (name === 'utf-16-le' || name === 'utf-16le') return Buffer.from(text, 'utf16le');
  if (name === 'utf-16-be' || name === 'utf-16be') return Buffer.from(text, 'utf16le').swap16();
  // Python's plain utf-16 writes a byte-order mark, then the machine's order (little-endian here)
  if (name === 'utf-16' || name === 'utf16')
    return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  throw new SALT_ERR_EXEC_COMMAND(`unknown encoding: ${encoding}`);
}
