/**
 * Locale specifiers as Salt's `salt.utils.locales` reads them:
 * `language[_territory][.codeset][@modifier] [charmap]`, and the form `locale -a` prints.
 */
export interface LocaleParts {
  language: string;
  territory: string;
  codeset: string;
  modifier: string;
  charmap: string;
}

const cut = (s: string, ch: string): [string, string] => {
  const at = s.indexOf(ch);
  return at < 0 ? [s, ''] : [s.slice(0, at), s.slice(at + 1)];
};

export function splitLocale(loc: string): LocaleParts {
  const [a, charmap] = cut(loc, ' ');
  const [b, modifier] = cut(a, '@');
  const [c, codeset] = cut(b, '.');
  const [language, territory] = cut(c, '_');
  return { language, territory, codeset, modifier, charmap };
}

export function joinLocale(p: LocaleParts): string {
  let loc = p.language;
  if (p.territory) loc += `_${p.territory}`;
  if (p.codeset) loc += `.${p.codeset}`;
  if (p.modifier) loc += `@${p.modifier}`;
  if (p.charmap) loc += ` ${p.charmap}`;
  return loc;
}

/** `en_us.UTF-8 UTF-8` → `en_US.utf8`, as `locale -a` lists it. */
export function normalizeLocale(loc: string): string {
  const p = splitLocale(loc);
  return joinLocale({
    ...p,
    territory: p.territory.toUpperCase(),
    codeset: p.codeset.toLowerCase().replaceAll('-', ''),
    charmap: '',
  });
}
