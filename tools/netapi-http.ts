/**
 * HTTP helpers for tests and benchmarks that drive the REST API (salt-api's contract) of a
 * cluster started with tools/local-cluster.ts.
 */

/** Waits until the API at `base` answers `GET /` (it starts after the master), polling every 100 ms. */
export async function waitForApi(base: string, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    try {
      await fetch(`${base}/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Logs `username` in through `POST /login` (JSON body) and resolves with the session token. */
export async function loginToken(
  base: string,
  username: string,
  password: string,
  eauth = 'file',
): Promise<string> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password, eauth }),
  });
  return ((await login.json()) as { return: [{ token: string }] }).return[0].token;
}
