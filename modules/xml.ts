/**
 * Salt's `xml` execution module (`salt/modules/xml.py`): read and set an element's text or an
 * attribute in an XML file, the element chosen with ElementTree's XPath subset. A file Salt
 * rewrites is written as ElementTree writes it (see `_xml-write.ts`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pyOsError } from './_py-oserror.js';
import { findElement } from './_xml-path.js';
import { parseXml, type XmlElement } from './_xml-tree.js';
import { writeXml } from './_xml-write.js';

async function load(file: string): Promise<XmlElement> {
  let buf: Buffer;
  try {
    buf = await readFile(file);
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, file));
  }
  return parseXml(buf);
}

/** The matched element of a file, or null (Salt logs this and returns False). */
async function lookup(
  file: string,
  path: string,
  log: { error: (msg: string) => void },
): Promise<{ root: XmlElement; el: XmlElement | null }> {
  const root = await load(file);
  const el = findElement(root, path);
  if (!el) log.error(`Unable to find element matching ${path}`);
  return { root, el };
}

/** Salt raises AttributeError here (after logging); tsalt says which element was missing. */
function missing(path: string): never {
  throw new SALT_ERR_EXEC_COMMAND(`Unable to find element matching ${path}`);
}

async function save(file: string, root: XmlElement): Promise<void> {
  try {
    await writeFile(file, writeXml(root));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, file));
  }
}

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' xml.${example}`;

export default defineModule({
  name: 'xml',
  doc: 'XML file manager: read and set the text or attributes of an element chosen by an XPath (ElementTree subset).',
  functions: {
    get_value: defineFunction({
      args: (z) => z.object({ file: z.string(), element: z.string() }),
      doc: `Returns the value of the matched xpath element${cli('get_value /tmp/test.xml ".//element"')}`,
      run: async (ctx, a) => {
        const { el } = await lookup(a.file, a.element, ctx.log);
        return el ? el.text : false;
      },
    }),
    set_value: defineFunction({
      args: (z) => z.object({ file: z.string(), element: z.string(), value: z.unknown() }),
      doc: `Sets the value of the matched xpath element${cli('set_value /tmp/test.xml ".//element" "new value"')}`,
      run: async (ctx, a) => {
        const { root, el } = await lookup(a.file, a.element, ctx.log);
        if (!el) return missing(a.element);
        el.text = pyStr(a.value);
        await save(a.file, root);
        return true;
      },
    }),
    get_attribute: defineFunction({
      args: (z) => z.object({ file: z.string(), element: z.string() }),
      doc: `Return the attributes of the matched xpath element.${cli(`get_attribute /tmp/test.xml ".//element[@id='3']"`)}`,
      run: async (ctx, a) => {
        const { el } = await lookup(a.file, a.element, ctx.log);
        return el ? Object.fromEntries(el.attrib) : false;
      },
    }),
    set_attribute: defineFunction({
      args: (z) => z.object({ file: z.string(), element: z.string(), key: z.string(), value: z.unknown() }),
      doc: `Set the requested attribute key and value for matched xpath element.${cli(`set_attribute /tmp/test.xml ".//element[@id='3']" editedby "gal"`)}`,
      run: async (ctx, a) => {
        const { root, el } = await lookup(a.file, a.element, ctx.log);
        if (!el) return missing(a.element);
        el.attrib.set(a.key, pyStr(a.value));
        await save(a.file, root);
        return true;
      },
    }),
  },
});
