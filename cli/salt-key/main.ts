/**
 * `salt-key`: list, accept, reject and delete minion keys, and show fingerprints, with
 * Salt's flags, prompts and output. Run by cli/salt-key.ts (ES modules) and by its single-file
 * build (cli/salt-key/bundled.ts).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Command, Option } from 'commander';
import { KeyManager, matchKeys } from '../../kernel/auth/key-manager.js';
import { KEY_STATES, type KeyListing, type KeyState } from '../../kernel/auth/pki.js';
import { EventFirer, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import { pemFinger } from '../../kernel/crypt/fingerprint.js';
import { resolveColor } from '../../outputters/colors.js';
import {
  keyListWhich,
  renderFingerprints,
  renderKeyList,
  renderKeyOutput,
} from '../../outputters/key-list.js';
import { resolveOutputter } from '../../outputters/registry.js';
import { loadConfigCached } from '../config-cache.js';
import { defaultConfigDir } from '../default-config-dir.js';
import { intOption, parseLikeOptparse } from '../optparse.js';
import { exitWhenWritten } from '../stdio.js';
import { fail, usageError } from '../usage-error.js';

const USAGE = 'salt-key [options]';

interface KeyCliOptions {
  configDir: string;
  list?: string;
  listAll?: boolean;
  accept?: string;
  acceptAll?: boolean;
  reject?: string;
  rejectAll?: boolean;
  delete?: string;
  deleteAll?: boolean;
  finger?: string;
  fingerAll?: boolean;
  printAll?: boolean;
  yes?: boolean;
  includeRejected?: boolean;
  includeDenied?: boolean;
  includeAll?: boolean;
  out?: string;
  outIndent?: number;
  color?: boolean;
  forceColor?: boolean;
}

/** Runs `salt-key` with command line `argv` (as `process.argv`). */
export async function keyMain(argv: readonly string[]): Promise<void> {
  const program = new Command('salt-key')
    .usage('[options]')
    .description('salt-key is used to manage Salt authentication keys')
    .option('-c, --config-dir <dir>', 'the configuration directory', defaultConfigDir())
    .option(
      '-l, --list <arg>',
      'list keys of one status: pre, un, unaccepted, acc, accepted, rej, rejected, den, denied, all',
    )
    .option('-L, --list-all', 'list all keys')
    .option('-a, --accept <glob>', 'accept the matching pending keys')
    .option('-A, --accept-all', 'accept all pending keys')
    .option('-r, --reject <glob>', 'reject the matching pending keys')
    .option('-R, --reject-all', 'reject all pending keys')
    .option('-d, --delete <glob>', 'delete the matching keys')
    .option('-D, --delete-all', 'delete all keys')
    .option('-f, --finger <glob>', 'print the fingerprints of the matching keys')
    .option('-F, --finger-all', 'print all fingerprints')
    .option('-p, --print <glob>', 'print the matching public keys')
    .option('-P, --print-all', 'print all public keys')
    .option('-y, --yes', 'answer yes to all questions')
    .option('--include-rejected', 'include rejected keys when accepting or rejecting')
    .option('--include-denied', 'include denied keys when deleting or rejecting')
    .option('--include-all', 'include rejected and denied keys')
    .option('--out <outputter>', 'output as json or yaml')
    .option('--out-indent <n>', 'indentation', intOption('--out-indent'))
    .option('--no-color', 'disable colours')
    .option('--force-color', 'force colours')
    .addOption(new Option('-V, --version', 'print the version and exit'));
  parseLikeOptparse(program, { prog: 'salt-key', usage: USAGE }, argv);
  if (program.args.length > 0)
    usageError('salt-key', USAGE, `unexpected argument ${JSON.stringify(program.args[0])}`);
  const opts = program.opts<KeyCliOptions & { print?: string }>();
  if (opts.list !== undefined && !keyListWhich(opts.list))
    usageError('salt-key', USAGE, `'${opts.list}' is not a valid argument to '--list'`);

  const config = await loadConfigCached('master', resolve(opts.configDir)).then(
    (l) => l.config,
    (err: unknown) => fail('salt-key', err, 2),
  );
  const color = resolveColor({
    noColor: opts.color === false,
    forceColor: Boolean(opts.forceColor),
    configColor: process.stdout.isTTY ? config.color : false,
    isTTY: Boolean(process.stdout.isTTY),
  });

  // Events reach the bus only while the master runs; without it there is nobody to tell.
  const busUp = existsSync(join(config.sock_dir, 'master_event_pull.ipc'));
  const firer = busUp ? new EventFirer(masterEventAddresses(config.sock_dir)) : undefined;
  const keys = new KeyManager({
    pkiDir: config.pki_dir,
    cachedir: config.cachedir,
    rotateAesKey: config.rotate_aes_key,
    onEvent: (tag, data) => firer?.fire(tag, data),
  });

  function emit(data: Record<string, unknown>): void {
    if (opts.out) {
      process.stdout.write(`${resolveOutputter(opts.out).render(data, { color, indent: opts.outIndent })}\n`);
    } else {
      const text = renderKeyOutput(data as Parameters<typeof renderKeyOutput>[0], { color });
      if (text) process.stdout.write(`${text}\n`);
    }
  }

  async function confirm(question: string, listing: Record<string, string[]>): Promise<boolean> {
    process.stdout.write(`${question}\n`);
    const text = renderKeyOutput(listing, { color });
    if (text) process.stdout.write(`${text}\n`);
    if (opts.yes) return true;
    if (!process.stdin.isTTY) return false;
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = (await rl.question('Proceed? [n/Y] ')).trim().toLowerCase();
    rl.close();
    return answer === '' || answer.startsWith('y');
  }

  function byDir(items: readonly { id: string; state: KeyState }[]): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const i of items) {
      const dir = KEY_STATES[i.state];
      out[dir] = [...(out[dir] ?? []), i.id];
    }
    return out;
  }

  async function act(
    action: 'accept' | 'reject' | 'delete',
    pattern: string,
    states: KeyState[],
  ): Promise<number> {
    const listing: KeyListing = await keys.list();
    const matched = matchKeys(listing, pattern, states);
    const verb = { accept: 'accepted', reject: 'rejected', delete: 'deleted' }[action];
    if (matched.length === 0) {
      const which = {
        accept: 'unaccepted',
        reject: 'unaccepted or accepted',
        delete: 'accepted, unaccepted or rejected',
      }[action];
      process.stdout.write(`The key glob '${pattern}' does not match any ${which} keys.\n`);
      return 0;
    }
    if (!(await confirm(`The following keys are going to be ${verb}:`, byDir(matched)))) return 0;
    const done = await keys[action](matched);
    for (const id of done) process.stdout.write(`Key for minion ${id} ${verb}.\n`);
    return 0;
  }

  const rejectedToo: KeyState[] = opts.includeRejected || opts.includeAll ? ['rejected'] : [];
  const deniedToo: KeyState[] = opts.includeDenied || opts.includeAll ? ['denied'] : [];
  let code = 0;
  try {
    if (opts.listAll || opts.list) {
      const which = opts.listAll ? 'all' : keyListWhich(opts.list!)!;
      const l = await keys.list();
      if (opts.out) {
        const data =
          which === 'all'
            ? { ...l }
            : {
                [{ acc: 'minions', pre: 'minions_pre', rej: 'minions_rejected', den: 'minions_denied' }[
                  which
                ]]:
                  l[
                    { acc: 'minions', pre: 'minions_pre', rej: 'minions_rejected', den: 'minions_denied' }[
                      which
                    ] as keyof KeyListing
                  ],
              };
        emit(data);
      } else {
        const text = renderKeyList(l, which, { color });
        if (text) process.stdout.write(`${text}\n`);
      }
    } else if (opts.accept || opts.acceptAll) {
      code = await act('accept', opts.accept ?? '*', ['pending', ...rejectedToo]);
    } else if (opts.reject || opts.rejectAll) {
      code = await act('reject', opts.reject ?? '*', ['pending', 'accepted', ...deniedToo]);
    } else if (opts.delete || opts.deleteAll) {
      code = await act('delete', opts.delete ?? '*', ['accepted', 'pending', 'rejected', 'denied']);
    } else if (opts.finger || opts.fingerAll || opts.print || opts.printAll) {
      const pattern = opts.finger ?? opts.print ?? '*';
      const l = await keys.list();
      const matched = matchKeys(l, pattern, ['accepted', 'pending', 'rejected', 'denied']);
      const printing = Boolean(opts.print || opts.printAll);
      const data: Record<string, Record<string, string>> = {};
      if (!printing && (opts.fingerAll || pattern === '*')) {
        data.local = {};
        for (const f of ['master.pem', 'master.pub']) {
          data.local[f] = pemFinger(await readFile(join(config.pki_dir, f), 'utf8'), config.hash_type);
        }
      }
      for (const m of matched) {
        const text = await readFile(join(config.pki_dir, KEY_STATES[m.state], m.id), 'utf8');
        const dir = KEY_STATES[m.state];
        data[dir] = { ...data[dir], [m.id]: printing ? text : pemFinger(text, config.hash_type) };
      }
      if (opts.out) emit(data);
      else {
        const text = renderFingerprints(data, { color });
        if (text) process.stdout.write(`${text}\n`);
      }
    } else {
      const l = await keys.list();
      const text = renderKeyList(l, 'all', { color });
      if (text) process.stdout.write(`${text}\n`);
    }
  } catch (err) {
    await firer?.close();
    fail('salt-key', err, 1);
  }
  await firer?.close();
  await exitWhenWritten(code);
}
