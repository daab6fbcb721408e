/**
 * Salt's `sysfs` state module (`salt/states/sysfs.py`): `sysfs.present` makes a /sys attribute
 * hold a value, through the `sysfs` module. An attribute that lists its choices with the chosen
 * one in brackets (`[mq-deadline] none`) counts as holding the bracketed one.
 */
import { pyStr } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** Python's `==` between a wanted value and one `sysfs.read` gave (numbers compare by value). */
function pyEquals(want: unknown, have: unknown): boolean {
  const num = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v);
  const [w, h] = [num(want), num(have)];
  const numeric = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';
  // biome-ignore lint/suspicious/noDoubleEquals: number == bigint compares by value, as Python's int == int
  if (numeric(w) && numeric(h)) return w == h;
  return w === h;
}

const present = defineState({
  args: (z) => z.object({ name: z.string(), value: z.unknown(), config: z.unknown().default(null) }),
  doc: `Ensure that the named sysfs attribute is set with the defined value

name: the sysfs attribute to set.
value: the value it must hold.`,
  async run(ctx, a): Promise<StateReturn> {
    const { name, value } = a;
    const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
    let current = await ctx.call('sysfs.read', [name]);
    if (current === false)
      return { ...ret, result: false, comment: `SysFS attribute ${name} doesn't exist.` };
    if (current !== null && typeof current === 'object')
      return { ...ret, result: false, comment: `${name} is not a SysFS attribute.` };
    if (typeof current === 'string') current = current.replace(/(.*\[|\].*)/g, '');
    if (pyEquals(value, current)) return { ...ret, comment: `SysFS attribute ${name} is already set.` };
    if (ctx.test) return { ...ret, result: null, comment: `SysFS attribute ${name} set to be changed.` };
    if (!(await ctx.call('sysfs.write', [name, value])))
      return { ...ret, result: false, comment: `Failed to set ${name} to ${pyStr(value)}` };
    return {
      ...ret,
      changes: { [name]: value },
      comment: `Updated SysFS attribute ${name} to ${pyStr(value)}`,
    };
  },
});

export default defineStateModule({
  name: 'sysfs',
  doc: 'Configuration of the kernel using sysfs: attributes under /sys.',
  functions: { present },
});
