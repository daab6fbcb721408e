/**
 * Salt's `locale` execution module (`salt/modules/localemod.py`): list the compiled locales,
 * read and set the system locale (`localectl` when systemd is booted, else the distribution's
 * file: `/etc/default/locale` on Debian), and generate a locale (`/etc/locale.gen` +
 * `locale-gen`, or `localedef`).
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { joinLocale, normalizeLocale, splitLocale } from './_locale-names.js';
import { which } from './_which.js';

const systemdBooted = (): boolean => existsSync('/run/systemd/system');
const family = (ctx: ExecContext): string => String(ctx.grains.os_family ?? '');
const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''));

/** `localectl status` as `{key: {VAR: value}}` or `{key: {data}}`. */
async function localectlStatus(ctx: ExecContext): Promise<Record<string, Record<string, string | null>>> {
  if (which('localectl') === null) throw new SALT_ERR_EXEC_COMMAND('Unable to find "localectl"');
  const out = str(await ctx.call('cmd.run', ['localectl status'])).trim();
  const ret: Record<string, Record<string, string | null>> = {};
  let key: string | null = null;
  for (const line of out.split('\n')) {
    let data: string;
    if (line.includes(': ')) {
      const at = line.indexOf(': ');
      key = line.slice(0, at).trim().toLowerCase().replaceAll(' ', '_');
      data = line.slice(at + 2);
    } else data = line.trim();
    if (!data || !key) continue;
    if (data.includes('=')) {
      const set = data.split('=');
      if (set.length === 2) {
        const entry = ret[key] ?? {};
        entry[set[0] as string] = set[1] as string;
        ret[key] = entry;
      }
    } else ret[key] = { data: data === 'n/a' ? null : data };
  }
  if (Object.keys(ret).length === 0) throw new SALT_ERR_EXEC_COMMAND('Unable to parse result of "localectl"');
  return ret;
}

const FILE_OF: Array<[string, string]> = [
  ['Suse', 'grep "^RC_LANG" /etc/sysconfig/language'],
  ['RedHat', 'grep "^LANG=" /etc/sysconfig/i18n'],
  ['Debian', 'grep "^LANG=" /etc/default/locale'],
  ['Solaris', 'grep "^LANG=" /etc/default/init'],
];

async function getLocale(ctx: ExecContext): Promise<string> {
  if (systemdBooted()) return (await localectlStatus(ctx)).system_locale?.LANG ?? '';
  const fam = family(ctx);
  if (fam.includes('Gentoo')) return str(await ctx.call('cmd.run', ['eselect --brief locale show'])).trim();
  const cmd = FILE_OF.find(([f]) => fam.includes(f))?.[1];
  if (cmd === undefined)
    throw new SALT_ERR_EXEC_COMMAND(`Error: "${str(ctx.grains.oscodename)}" is unsupported!`);
  const parts = str(await ctx.call('cmd.run', [cmd], { python_shell: true })).split('=');
  if (parts.length < 2) {
    ctx.log.error({ cmd }, `Error occurred while running "${cmd}": list index out of range`);
    return '';
  }
  return (parts[1] as string).replaceAll('"', '');
}

async function replaceOrAppend(ctx: ExecContext, file: string, pattern: string, repl: string): Promise<void> {
  if (!(await ctx.call('file.file_exists', [file]))) await ctx.call('file.touch', [file]);
  await ctx.call('file.replace', [file, pattern, repl], { append_if_not_found: true });
}

async function setLocale(ctx: ExecContext, locale: string): Promise<boolean> {
  if (systemdBooted()) {
    const params: Record<string, string | null> = { ...((await localectlStatus(ctx)).system_locale ?? {}) };
    params.LANG = locale;
    const args = Object.entries(params)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => `${k}="${v}"`)
      .join(' ');
    return (await ctx.call('cmd.retcode', [`localectl set-locale ${args}`], { python_shell: false })) === 0;
  }
  const fam = family(ctx);
  if (fam.includes('Suse'))
    await replaceOrAppend(ctx, '/etc/sysconfig/language', '^RC_LANG=.*', `RC_LANG="${locale}"`);
  else if (fam.includes('RedHat'))
    await replaceOrAppend(ctx, '/etc/sysconfig/i18n', '^LANG=.*', `LANG="${locale}"`);
  else if (fam.includes('Debian')) {
    const updateLocale = which('update-locale');
    if (updateLocale === null)
      throw new SALT_ERR_EXEC_COMMAND('Cannot set locale: "update-locale" was not found.');
    await ctx.call('cmd.run', [updateLocale]);
    await ctx.call('file.replace', ['/etc/default/locale', '^LANG=.*', `LANG="${locale}"`], {
      append_if_not_found: true,
    });
  } else if (fam.includes('Gentoo')) {
    return (await ctx.call('cmd.retcode', [['eselect', '--brief', 'locale', 'set', locale]])) === 0;
  } else if (fam.includes('Solaris')) {
    if (!(await listAvail(ctx)).includes(locale)) return false;
    await ctx.call('file.replace', ['/etc/default/init', '^LANG=.*', `LANG="${locale}"`], {
      append_if_not_found: true,
    });
  } else throw new SALT_ERR_EXEC_COMMAND('Error: Unsupported platform!');
  return true;
}

async function listAvail(ctx: ExecContext): Promise<string[]> {
  return str(await ctx.call('cmd.run', ['locale -a'])).split('\n');
}

async function avail(ctx: ExecContext, locale: string): Promise<boolean> {
  const want = normalizeLocale(locale);
  return (await listAvail(ctx)).some((x) => normalizeLocale(x.trim()) === want);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function genLocale(ctx: ExecContext, input: string, verbose: boolean): Promise<unknown> {
  const os = ctx.grains.os;
  const onDebian = os === 'Debian';
  const onUbuntu = os === 'Ubuntu';
  const onGentoo = family(ctx) === 'Gentoo';
  const onSuse = family(ctx) === 'Suse';
  if (family(ctx) === 'Solaris') return (await listAvail(ctx)).includes(input);
  const info = splitLocale(input);
  const searchStr = `${info.language}_${info.territory}`;
  let locale = input;
  if (!info.charmap && !onUbuntu) {
    info.charmap = info.codeset;
    locale = joinLocale(info);
  }
  let valid: boolean;
  let search: string;
  if (onDebian || onGentoo) {
    search = '/usr/share/i18n/SUPPORTED';
    // Salt hands the locale to a regex unescaped; a dot matches any character there too
    valid = (await ctx.call('file.search', [search, `^${locale}$`], { multiline: true })) === true;
  } else {
    search = onSuse ? '/usr/share/locale' : '/usr/share/i18n/locales';
    try {
      valid = (await readdir(search)).includes(searchStr);
    } catch (err) {
      ctx.log.error({ err: String(err) }, 'locale search folder unreadable');
      throw new SALT_ERR_EXEC_COMMAND(`Locale "${locale}" is not available.`);
    }
  }
  if (!valid) {
    ctx.log.error({ locale, search }, `The provided locale "${locale}" is not found in ${search}`);
    return false;
  }
  if (existsSync('/etc/locale.gen')) {
    await ctx.call('file.replace', ['/etc/locale.gen', `^\\s*#\\s*${escapeRe(locale)}\\s*$`, `${locale}\n`], {
      append_if_not_found: true,
    });
  } else if (onUbuntu) {
    const f = `/var/lib/locales/supported.d/${info.language}`;
    await ctx.call('file.touch', [f]);
    await ctx.call('file.replace', [f, locale, locale], { append_if_not_found: true });
  }
  let cmd: string[];
  if (which('locale-gen')) {
    cmd = ['locale-gen'];
    if (onGentoo) cmd.push('--generate');
    cmd.push(onUbuntu ? normalizeLocale(locale) : locale);
  } else if (which('localedef')) {
    cmd = [
      'localedef',
      '--force',
      '-i',
      searchStr,
      '-f',
      info.codeset,
      `${searchStr}.${info.codeset}`,
      verbose ? '--verbose' : '--quiet',
    ];
  } else throw new SALT_ERR_EXEC_COMMAND('Command "locale-gen" or "localedef" was not found on this system.');
  const res = (await ctx.call('cmd.run_all', [cmd])) as { retcode: number; stderr: string };
  if (res.retcode) ctx.log.error({ stderr: res.stderr }, 'locale generation failed');
  return verbose ? res : res.retcode === 0;
}

export default defineModule({
  name: 'locale',
  doc: 'Module for managing locales on POSIX-like systems.',
  virtual: () =>
    process.platform === 'win32'
      ? { ok: false, reason: 'Cannot load locale module: windows platforms are unsupported' }
      : true,
  functions: {
    list_avail: defineFunction({
      doc: "Lists available (compiled) locales\n\nCLI Example: salt '*' locale.list_avail",
      run: (ctx) => listAvail(ctx),
    }),
    get_locale: defineFunction({
      doc: "Get the current system locale\n\nCLI Example: salt '*' locale.get_locale",
      run: (ctx) => getLocale(ctx),
    }),
    set_locale: defineFunction({
      args: (z) => z.object({ locale: z.string() }),
      doc: "Sets the current system locale\n\nCLI Example: salt '*' locale.set_locale 'en_US.UTF-8'",
      run: (ctx, a) => setLocale(ctx, a.locale),
    }),
    avail: defineFunction({
      args: (z) => z.object({ locale: z.string() }),
      doc: "Check if a locale is available.\n\nCLI Example: salt '*' locale.avail 'en_US.UTF-8'",
      run: (ctx, a) => avail(ctx, a.locale),
    }),
    gen_locale: defineFunction({
      args: (z) => z.object({ locale: z.string() }),
      varkw: true,
      doc: "Generate a locale (Debian and Gentoo want the charmap: 'en_IE.UTF-8 UTF-8'); verbose=True returns the command's result.\n\nCLI Example: salt '*' locale.gen_locale en_US.UTF-8",
      run: (ctx, a, extra) => genLocale(ctx, a.locale, extra.kwargs.verbose === true),
    }),
  },
});
