/**
 * Whether the web console is served: it is, with the REST API, unless the API's block
 * (`rest_cherrypy`, else `rest_tornado`) says `console: False`.
 */

/** The REST API blocks of a master config, as the console reads them. */
export interface ConsoleConfigView {
  readonly rest_cherrypy?: unknown;
  readonly rest_tornado?: unknown;
}

function block(config: ConsoleConfigView): Readonly<Record<string, unknown>> | undefined {
  const b = config.rest_cherrypy ?? config.rest_tornado;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : undefined;
}

/** True when a REST API is configured and its block does not turn the console off. */
export function consoleEnabled(config: ConsoleConfigView): boolean {
  const b = block(config);
  if (!b) return false;
  const v = b.console;
  return v !== false;
}
