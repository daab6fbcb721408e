/**
 * Salt's `xml` state module (`salt/states/xml.py`): `xml.value_present` makes an element's
 * text (chosen by an XPath, ElementTree's subset) a given value, through the `xml` module.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const valuePresent = defineState({
  args: (z) => z.object({ name: z.string(), xpath: z.string(), value: z.unknown() }),
  varkw: true,
  doc: `Manages a given XML file

name: the XML file to manage, as an absolute path.
xpath: the element whose text to manage (ElementTree's XPath subset).
value: the text it must have.`,
  async run(ctx, a, extra): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, changes: {}, result: true, comment: '' };
    const test = 'test' in extra.kwargs ? extra.kwargs.test : ctx.test;
    const current = await ctx.call('xml.get_value', [a.name, a.xpath]);
    if (!current) return { ...ret, result: false, comment: `xpath query ${a.xpath} not found in ${a.name}` };
    if (current === a.value) return { ...ret, comment: `${current} is already present` };
    const changes = { [a.name]: { old: current, new: a.value } };
    if (test) return { ...ret, result: null, comment: `${a.name} will be updated`, changes };
    const done = await ctx.call('xml.set_value', [a.name, a.xpath, a.value]);
    return { ...ret, result: done as boolean, comment: `${a.name} updated`, changes };
  },
});

export default defineStateModule({
  name: 'xml',
  doc: 'State management of XML files: the text of elements chosen by XPath.',
  functions: { value_present: valuePresent },
});
