/**
 * An option as Salt's flat `opts` has it: a resolved tsalt config keeps the options its kernel
 * does not define (`gpg_keydir`, `pass_dir`, ...) in `extra`.
 */
export function saltOption(opts: Readonly<Record<string, unknown>>, name: string): unknown {
  if (opts[name] !== undefined) return opts[name];
  const extra = opts.extra;
  return typeof extra === 'object' && extra !== null ? (extra as Record<string, unknown>)[name] : undefined;
}
