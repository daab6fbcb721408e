/**
 * The text Salt returns for a function it cannot run (`LazyLoader.missing_fun_string`), kept
 * byte-for-byte because it travels in job returns: `'foo.bar' is not available.` when nothing
 * is known, or `'foo' __virtual__ returned False: <reason>` when the module failed to load.
 * Salt uses the `__virtual__` wording for import errors too, and so does tsalt.
 */

/** The module part of `mod.fn` (everything before the first dot). */
export function moduleOf(fun: string): string {
  const dot = fun.indexOf('.');
  return dot < 0 ? fun : fun.slice(0, dot);
}

/**
 * Salt's message for a function that is not available.
 * @param loaded whether the function's module is loaded (then only the function is missing)
 * @param reason why the module is missing, if known; `''` is a refusal without a reason
 */
export function missingFunString(fun: string, loaded: boolean, reason: string | undefined): string {
  if (loaded || reason === undefined) return `'${fun}' is not available.`;
  const mod = moduleOf(fun);
  return reason === ''
    ? `'${mod}' __virtual__ returned False`
    : `'${mod}' __virtual__ returned False: ${reason}`;
}
