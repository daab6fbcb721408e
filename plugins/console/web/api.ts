/**
 * The console's REST client: the salt-api endpoints, called with the session's token
 * (`X-Auth-Token`; the event stream uses the session cookie /login sets).
 */

/** The session a successful login gives. */
export interface Session {
  readonly token: string;
  readonly user: string;
  readonly eauth: string;
  readonly expire: number;
  readonly perms: readonly unknown[];
}

/** An API answer that was not 2xx, with salt-api's error code when it sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const KEY = 'tsalt-console-session';

/** Fired on `window` when the API refuses the session's token (expired, revoked). */
export const SESSION_ENDED = 'tsalt-console-session-ended';

export function savedSession(): Session | undefined {
  try {
    const raw = sessionStorage.getItem(KEY);
    const s = raw ? (JSON.parse(raw) as Session) : undefined;
    return s && s.expire * 1000 > Date.now() ? s : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(s: Session | undefined): void {
  if (s) sessionStorage.setItem(KEY, JSON.stringify(s));
  else sessionStorage.removeItem(KEY);
}

async function call(
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers['X-Auth-Token'] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    body: body === undefined ? null : JSON.stringify(body),
    credentials: 'same-origin',
  });
  const text = await res.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = text;
  }
  // an expired or revoked token: the page goes back to the login form
  if (res.status === 401 && token) dispatchEvent(new Event(SESSION_ENDED));
  if (!res.ok) {
    const err = (data as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(
      res.status,
      err?.code ?? `HTTP_${res.status}`,
      err?.message ?? `${res.status} ${res.statusText}`,
    );
  }
  return data;
}

/** The eauth back ends the master offers, in its config order. */
export async function consoleConfig(): Promise<{ eauth: string[] }> {
  return (await call('GET', '/console/config.json', undefined)) as { eauth: string[] };
}

export async function login(username: string, password: string, eauth: string): Promise<Session> {
  const body = (await call('POST', '/login', undefined, { username, password, eauth })) as {
    return: [Session];
  };
  return body.return[0];
}

export async function logout(token: string): Promise<void> {
  await call('POST', '/logout', token).catch(() => undefined);
}

/** One lowstate chunk through `POST /`: its `return[0]`. */
export async function lowstate(token: string, chunk: Record<string, unknown>): Promise<unknown> {
  const body = (await call('POST', '/', token, [chunk])) as { return: unknown[] };
  return body.return[0];
}

/**
 * One lowstate chunk whose client answers with many entries (`local_batch`: one
 * `{minion: return}` per minion), which salt-api lays out as the whole `return` list.
 */
export async function lowstateEntries(token: string, chunk: Record<string, unknown>): Promise<unknown[]> {
  const body = (await call('POST', '/', token, [chunk])) as { return: unknown[] };
  return body.return;
}

/** A wheel function's own return (the `data.return` of the wheel answer). */
export async function wheel(
  token: string,
  fun: string,
  kwargs: Record<string, unknown> = {},
): Promise<unknown> {
  const r = (await lowstate(token, { client: 'wheel', fun, ...kwargs })) as { data?: { return?: unknown } };
  return r?.data?.return;
}

export async function runner(
  token: string,
  fun: string,
  kwargs: Record<string, unknown> = {},
): Promise<unknown> {
  return lowstate(token, { client: 'runner', fun, ...kwargs });
}

export async function get(token: string, path: string): Promise<unknown> {
  return call('GET', path, token);
}
