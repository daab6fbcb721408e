/**
 * What the data renderers of Salt that read text share (json5, hjson, msgpack): a leading `#!`
 * line is dropped (tsalt keeps it as an empty line so error lines match the file), and text with
 * nothing but blanks renders as `{}`.
 */

/** The text to parse, or undefined when it is empty (the renderer returns `{}`). */
export function bodyAfterShebang(text: string): string | undefined {
  const body = text.startsWith('#!') ? text.replace(/^[^\n]*/, '') : text;
  return body.trim() === '' ? undefined : body;
}
