/**
 * Jinja's `urlize` filter (jinja2/utils.py, Jinja 3.1 as Salt 3006 runs it): the text HTML-escaped,
 * then each word that is a URL (`http://`, `https://`, `www.`, a bare `.com`/`.net`/`.org`
 * name) or an e-mail address becomes a link; leading `(`/`<` and trailing `.`/`,`/`)`/`>` stay
 * outside it. `trim_url_limit` shortens the shown text, `rel` always has `noopener`.
 */
import { arg, type Fn } from './filters.js';
import { str, truthy } from './values.js';

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const LEAD = /^(?:\(|<|&lt;)+/;
const TRAIL = /(?:[)>.,\n]|&gt;)+$/;
const EMAIL = /^\S+@\w[\w.-]*\.\w+$/;
// what counts as a web address: a scheme or www. with a 2-63 letter top-level name, a bare name
// under a common top-level domain, or a scheme with an IP; then an optional port and path
const WEB = new RegExp(
  [
    '^(?:(?:https?://|www\\.)(?:[\\w%-]+\\.)*(?:[a-z]{2,63}|xn--[\\w%]{2,59})',
    '|(?:[\\w%-]{2,63}\\.)+(?:com|net|int|edu|gov|org|info|mil)',
    '|https?://(?:\\d{1,3}(?:\\.\\d{1,3}){3}|\\[(?:[\\da-f]{0,4}:){2}(?:[\\da-f]{0,4}:?){1,6}\\]))',
    '(?::\\d{1,5})?(?:[/?#]\\S*)?$',
  ].join(''),
  'i',
);

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML[c] as string);
}

/** The word's link, or the word itself. */
function linkOf(middle: string, attrs: string, trim: (url: string) => string): string {
  if (WEB.test(middle)) {
    const href = middle.startsWith('https://') || middle.startsWith('http://') ? middle : `https://${middle}`;
    return `<a href="${href}"${attrs}>${trim(middle)}</a>`;
  }
  if (middle.startsWith('mailto:') && EMAIL.test(middle.slice(7)))
    return `<a href="${middle}">${middle.slice(7)}</a>`;
  if (middle.includes('@') && !middle.startsWith('www.') && !middle.includes(':') && EMAIL.test(middle))
    return `<a href="mailto:${middle}">${middle}</a>`;
  return middle;
}

/** Moves closing brackets back from `tail` into `middle` while `middle` has unclosed ones. */
function balance(middle: string, tail: string): [string, string] {
  for (const [open, close] of [
    ['(', ')'],
    ['<', '>'],
    ['&lt;', '&gt;'],
  ] as const) {
    const opens = middle.split(open).length - 1;
    if (opens <= middle.split(close).length - 1) continue;
    const n = Math.min(opens, tail.split(close).length - 1);
    for (let k = 0; k < n; k++) {
      const end = tail.indexOf(close) + close.length;
      middle += tail.slice(0, end);
      tail = tail.slice(end);
    }
  }
  return [middle, tail];
}

export const urlize: Fn = (value, args, kw) => {
  const limit = arg(args, kw, 0, 'trim_url_limit', null);
  const nofollow = truthy(arg(args, kw, 1, 'nofollow', false));
  const target = arg(args, kw, 2, 'target', null);
  const relGiven = arg(args, kw, 3, 'rel', null);
  // the environment's policy `noopener` is always added to the given ones
  const rels = new Set([
    ...(relGiven === null ? '' : str(relGiven)).split(/\s+/).filter(Boolean),
    'noopener',
  ]);
  if (nofollow) rels.add('nofollow');
  const rel = [...rels].sort().join(' ');
  const attrs = `${rel ? ` rel="${escapeHtml(rel)}"` : ''}${target ? ` target="${escapeHtml(str(target))}"` : ''}`;
  const trim = (url: string): string => {
    if (limit === null || limit === undefined) return url;
    const n = Number(limit);
    return url.length > n ? `${url.slice(0, n)}...` : url;
  };
  return escapeHtml(str(value))
    .split(/(\s+)/)
    .map((word, i) => {
      if (i % 2 === 1 || word === '') return word;
      const head = LEAD.exec(word)?.[0] ?? '';
      let middle = word.slice(head.length);
      let tail = TRAIL.exec(middle)?.[0] ?? '';
      middle = middle.slice(0, middle.length - tail.length);
      [middle, tail] = balance(middle, tail);
      return head + linkOf(middle, attrs, trim) + tail;
    })
    .join('');
};
