/**
 * Masks the password of `scheme://user:password@host` URLs in a text, so a remote's URL can be
 * logged or put in an error without its secret (Salt logs remote ids as written; tsalt does not).
 */
const USERINFO = /([a-z][a-z0-9+.-]*:\/\/)([^/@\s:]*):[^/@\s]*@/gi;

export function redactUrl(text: string): string {
  return text.replace(USERINFO, '$1$2:***@');
}
