/**
 * Salt's `salt_version` execution module (salt/modules/salt_version.py): release numbers of
 * Salt's code names, and how the Salt version tsalt speaks for (3006.18, a Sulfur release)
 * compares with a named release.
 */
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { SALT_COMPAT_VERSION } from '../kernel/util.js';

/** The code names before Salt numbered its releases by one integer, with their year.month numbers. */
const DATED: readonly [string, string][] = [
  ['hydrogen', '2014.1'],
  ['helium', '2014.7'],
  ['lithium', '2015.5'],
  ['beryllium', '2015.8'],
  ['boron', '2016.3'],
  ['carbon', '2016.11'],
  ['nitrogen', '2017.7'],
  ['oxygen', '2018.3'],
  ['fluorine', '2019.2'],
];
/** From Neon (3000) on, a release is named for element 10 + (release - 3000) up to Oganesson. */
const ELEMENTS = `neon sodium magnesium aluminium silicon phosphorus sulfur chlorine argon potassium calcium
scandium titanium vanadium chromium manganese iron cobalt nickel copper zinc gallium germanium arsenic
selenium bromine krypton rubidium strontium yttrium zirconium niobium molybdenum technetium ruthenium
rhodium palladium silver cadmium indium tin antimony tellurium iodine xenon cesium barium lanthanum
cerium praseodymium neodymium promethium samarium europium gadolinium terbium dysprosium holmium erbium
thulium ytterbium lutetium hafnium tantalum tungsten rhenium osmium iridium platinum gold mercury
thallium lead bismuth polonium astatine radon francium radium actinium thorium protactinium uranium
neptunium plutonium americium curium berkelium californium einsteinium fermium mendelevium nobelium
lawrencium rutherfordium dubnium seaborgium bohrium hassium meitnerium darmstadtium roentgenium
copernicium nihonium flerovium moscovium livermorium tennessine oganesson`.split(/\s+/);

const RELEASES = new Map<string, string>([
  ...DATED,
  ...ELEMENTS.map((n, i): [string, string] => [n, String(3000 + i)]),
]);

function releaseNumber(name: unknown): string | null {
  if (typeof name !== 'string') throw new SALT_ERR_EXEC_COMMAND("'name' argument must be a string");
  return RELEASES.get(name.toLowerCase()) ?? null;
}

/** -1, 0 or 1: the major release tsalt speaks for against a named one; null for an unknown name. */
function compareRelease(name: unknown): number | null {
  const target = releaseNumber(name);
  if (target === null) return null;
  const mine = SALT_COMPAT_VERSION.split('.').slice(0, -1).map(Number);
  const theirs = target.split('.').map(Number);
  for (let i = 0; i < Math.max(mine.length, theirs.length); i++) {
    const d = (mine[i] ?? 0) - (theirs[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

const nameArg = (z: typeof import('zod').z) => z.object({ name: z.unknown() });
const cli = (fn: string, arg: string) => `\n\nCLI Example:\n\n    salt '*' salt_version.${fn} ${arg}`;

export default defineModule({
  name: 'salt_version',
  doc: "Salt's release code names, and the minion's Salt version against them.",
  functions: {
    get_release_number: defineFunction({
      args: nameArg,
      doc: `The release number of a Salt code name (case does not matter), or None for an unknown name.${cli('get_release_number', "'Sulfur'")}`,
      inline: true,
      run: (_ctx, a) => releaseNumber(a.name),
    }),
    equal: defineFunction({
      args: nameArg,
      doc: `True when the minion's major Salt release is the named one (3006 is Sulfur).${cli('equal', "'Sulfur'")}`,
      inline: true,
      run: (_ctx, a) => compareRelease(a.name) === 0,
    }),
    greater_than: defineFunction({
      args: nameArg,
      doc: `True when the minion's major Salt release is newer than the named one.${cli('greater_than', "'Phosphorus'")}`,
      inline: true,
      run: (_ctx, a) => compareRelease(a.name) === 1,
    }),
    less_than: defineFunction({
      args: nameArg,
      doc: `True when the minion's major Salt release is older than the named one.${cli('less_than', "'Chlorine'")}`,
      inline: true,
      run: (_ctx, a) => compareRelease(a.name) === -1,
    }),
  },
});
