// salt-call's own answers to bad arguments, byte for byte as Salt 3006's salt-call prints them
// (checked by hand with `salt-call --local`): a call that does not fit the function prints the
// reason and `Usage:` on stderr and the docstring on stdout; a keyword the function does not take
// prints only the reason; a CommandExecutionError prints `Error running '<fun>': ...`; any other
// exception reaches Salt's global exception handler (stderr only); all exit 1.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tools/local-cluster.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-call-usage-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));
mkdirSync(join(top, 'srv'), { recursive: true });
writeFileSync(
  join(top, 'minion'),
  `id: u1\nfile_client: local\nroot_dir: ${top}/root\nfile_roots: {base: [${top}/srv]}\npillar_roots: {base: [${top}/srv]}\n`,
);
const call = (...args: string[]) => runCli('salt-call', ['--local', '-c', top, ...args], 60_000);

const ECHO_DOC =
  "\n    Return a string - used for testing the connection\n\n    CLI Example:\n\n    .. code-block:: bash\n\n        salt '*' test.echo 'foo bar baz quo qux'\n    \n";

describe('salt-call with bad arguments', () => {
  it('a missing or extra positional argument: the reason, Usage, the docstring; exit 1', async () => {
    const missing = await call('test.echo');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "\nPassed invalid arguments: echo() missing 1 required positional argument: 'text'.\n\nUsage:\n",
    );
    expect(missing.stdout).toBe(ECHO_DOC);
    const extra = await call('test.echo', 'a', 'b');
    expect(extra.code).toBe(1);
    expect(extra.stderr).toBe(
      '\nPassed invalid arguments: echo() takes 1 positional argument but 2 were given.\n\nUsage:\n',
    );
  });

  it('a keyword the function does not take: the reason alone', async () => {
    const r = await call('test.echo', 'text=a', 'foo=bar');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('The following keyword arguments are not valid: foo=bar\n');
  });

  it('a SaltInvocationError of the function (state.apply pillar=[1]) takes the Usage path', async () => {
    const r = await call('state.apply', 'pillar=[1]');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      '\nPassed invalid arguments: Pillar data must be formatted as a dictionary, unless pillar_enc is specified..\n\nUsage:\n',
    );
    expect(r.stdout).toMatch(/^\n {4}\S/);
  });

  it("a CommandExecutionError: Error running '<fun>': ...", async () => {
    const r = await call('pillar.items', 'pillar={a: 1}', 'pillar_enc=yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      "Error running 'pillar.items': Failed to decrypt pillar override: 'yaml' is not a valid decryption renderer. Valid choices are: gpg\n",
    );
  });

  it("any other exception: Salt's global exception handler on stderr, nothing on stdout", async () => {
    const r = await call('test.raise_exception', 'salt.exceptions.SaltRenderError', 'bad');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines.slice(0, 3)).toEqual([
      "[ERROR   ] An un-handled exception was caught by Salt's global exception handler:",
      'SaltRenderError: bad',
      'Traceback (most recent call last):',
    ]);
    // the handler's traceback, then Python's hook prints it again; each ends with the class
    expect(lines.filter((l) => l === 'Traceback (most recent call last):')).toHaveLength(2);
    expect(lines.filter((l) => l === 'salt.exceptions.SaltRenderError: bad')).toHaveLength(2);
    expect(r.stderr).not.toMatch(/minion function caused an exception/);
    const key = await call('test.raise_exception', 'KeyError', 'x');
    expect(key.code).toBe(1);
    expect(key.stderr.split('\n')[1]).toBe("KeyError: 'x'");
  });
});
