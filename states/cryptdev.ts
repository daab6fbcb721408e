/**
 * Salt's `cryptdev` state module (`salt/states/cryptdev.py`): `cryptdev.mapped` keeps a crypt
 * mapping in the crypttab and/or opens it now; `cryptdev.unmapped` removes it and/or closes it.
 * Under `test=True` the crypttab is left alone and nothing is said about it, as Salt's; the
 * misspelt `commment` key of Salt's test-mode return is kept, since Salt users see it.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const noKeyfile = (k: unknown) => k === null || k === undefined || k === 'none' || k === '-';

const mapped = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      device: z.string(),
      keyfile: z.unknown().default(null),
      opts: z.unknown().default(null),
      config: z.string().default('/etc/crypttab'),
      persist: z.boolean().default(true),
      immediate: z.boolean().default(false),
      match_on: z.unknown().default('name'),
    }),
  doc: `Verify that a device is mapped

name: the name to map the device under.
device: the device (/dev/sdb1, or UUID=...).
keyfile: none to type the password at boot, or the path of a key file (needed for immediate).
opts: crypttab options, a list or a comma-separated string.
config: the crypttab to keep the mapping in (/etc/crypttab).
persist: keep the mapping in the crypttab (True).
immediate: open the mapping now, without opts (False).
match_on: the crypttab field(s) that find the line to change (name).`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    const changes = ret.changes as Record<string, string>;
    if (!a.immediate && !a.persist)
      return {
        ...ret,
        result: false,
        comment: 'Either persist or immediate must be set, otherwise this state does nothing',
      };
    if (a.immediate && noKeyfile(a.keyfile)) {
      ret.result = false;
      changes.cryptsetup = 'Device cannot be mapped immediately without a keyfile';
    } else if (a.immediate) {
      const active = (await ctx.call('cryptdev.active', [])) as Record<string, unknown>;
      if (!Object.hasOwn(active, a.name)) {
        if (a.opts) ctx.log.warn('Ignore cryptdev configuration when mapping immediately');
        if (ctx.test) {
          ret.result = null;
          ret.commment = 'Device would be mapped immediately';
        } else if (await ctx.call('cryptdev.open', [a.name, a.device, a.keyfile])) {
          changes.cryptsetup = 'Device mapped using cryptsetup';
        } else {
          changes.cryptsetup = 'Device failed to map using cryptsetup';
          ret.result = false;
        }
      }
    }
    if (a.persist && !ctx.test) {
      const done = await ctx.call('cryptdev.set_crypttab', [a.name, a.device], {
        password: a.keyfile,
        options: a.opts,
        config: a.config,
        match_on: a.match_on,
      });
      if (done === 'new') changes.crypttab = `Entry added in ${a.config}`;
      else if (done === 'change') changes.crypttab = `Existing entry in ${a.config} changed`;
      else if (!done) {
        changes.crypttab = `Unable to set entry in ${a.config}`;
        ret.result = false;
      }
    }
    return ret;
  },
});

const unmapped = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      config: z.string().default('/etc/crypttab'),
      persist: z.boolean().default(true),
      immediate: z.boolean().default(false),
    }),
  doc: `Ensure that a device is unmapped

name: the mapping that must not exist.
config: the crypttab to remove it from (/etc/crypttab).
persist: remove it from the crypttab (True).
immediate: close it now (False).`,
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    const changes = ret.changes as Record<string, string>;
    if (a.immediate) {
      const active = (await ctx.call('cryptdev.active', [])) as Record<string, unknown>;
      if (Object.hasOwn(active, a.name)) {
        if (ctx.test) {
          ret.result = null;
          ret.commment = 'Device would be unmapped immediately';
        } else if (await ctx.call('cryptdev.close', [a.name])) {
          changes.cryptsetup = 'Device unmapped using cryptsetup';
        } else {
          changes.cryptsetup = 'Device failed to unmap using cryptsetup';
          ret.result = false;
        }
      }
    }
    if (a.persist && !ctx.test) {
      const done = await ctx.call('cryptdev.rm_crypttab', [a.name], { config: a.config });
      if (done === 'change') changes.crypttab = `Entry removed from ${a.config}`;
      else if (!done) {
        changes.crypttab = `Unable to remove entry in ${a.config}`;
        ret.result = false;
      }
    }
    return ret;
  },
});

export default defineStateModule({
  name: 'cryptdev',
  doc: 'Opening of encrypted devices: crypttab entries and cryptsetup mappings.',
  functions: { mapped, unmapped },
});
