/**
 * A throwaway gpg keyring for tests: `gpgKey(keydir, email)` creates `keydir` (mode 700) with a
 * passphrase-less key for `email` and returns a function that encrypts text to it (armored);
 * `killGpgAgent(keydir)` ends the agent gpg started for that keyring.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

export function gpgKey(keydir: string, email: string): (text: string) => string {
  mkdirSync(keydir, { recursive: true, mode: 0o700 });
  const env = { ...process.env, GNUPGHOME: keydir };
  execFileSync(
    'gpg',
    [
      '--batch',
      '--passphrase',
      '',
      '--quick-gen-key',
      `tsalt-test <${email}>`,
      'default',
      'default',
      'never',
    ],
    { env, stdio: 'ignore' },
  );
  return (text) =>
    execFileSync('gpg', ['--batch', '--armor', '--trust-model', 'always', '-e', '-r', email], {
      env,
      input: text,
    }).toString();
}

export function killGpgAgent(keydir: string): void {
  try {
    execFileSync('gpgconf', ['--homedir', keydir, '--kill', 'all'], { stdio: 'ignore' });
  } catch {}
}
