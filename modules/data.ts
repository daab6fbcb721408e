/**
 * Salt's `data` execution module (`salt/modules/data.py`): a minion-local key/value store in
 * `<cachedir>/datastore`, a msgpack map written as Salt writes it (`use_bin_type=True`), so
 * Salt and tsalt minions read each other's store.
 */
import { rmSync } from 'node:fs';
import { defineFunction, defineModule } from '../kernel/index.js';
import { dumpStore, loadStore, type Store, storePath } from './_data-store.js';
import { isMapping, pyEquals } from './_traverse.js';

/** Python's `ast.literal_eval` of a dict literal, for the few shapes a CLI user types. */
function literalDict(text: string): Store | undefined {
  const json = text
    .replace(/'/g, '"')
    .replace(/\bTrue\b/g, 'true')
    .replace(/\bFalse\b/g, 'false')
    .replace(/\bNone\b/g, 'null');
  try {
    const got: unknown = JSON.parse(json);
    return isMapping(got) ? got : undefined;
  } catch {
    return undefined;
  }
}

const keyArg = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export default defineModule({
  name: 'data',
  doc: 'Manage a local persistent data structure that can hold any arbitrary data specific to the minion.',
  functions: {
    clear: defineFunction({
      doc: `Clear out all of the data in the minion datastore, this function is destructive!

CLI Example:

    salt '*' data.clear`,
      run: (ctx) => {
        rmSync(storePath(ctx), { force: true });
        return true;
      },
    }),
    load: defineFunction({
      doc: `Return all of the data in the minion datastore.

CLI Example:

    salt '*' data.load`,
      run: (ctx) => loadStore(ctx),
    }),
    dump: defineFunction({
      args: (z) => z.object({ new_data: z.unknown() }),
      doc: `Replace the entire datastore with a passed data structure.

CLI Example:

    salt '*' data.dump '{'eggs': 'spam'}'`,
      run: (ctx, a) => {
        const data = isMapping(a.new_data)
          ? a.new_data
          : typeof a.new_data === 'string'
            ? literalDict(a.new_data)
            : undefined;
        return data === undefined ? false : dumpStore(ctx, data);
      },
    }),
    update: defineFunction({
      args: (z) => z.object({ key: keyArg(z), value: z.unknown() }),
      doc: `Update a key with a value in the minion datastore.

CLI Example:

    salt '*' data.update <key> <value>`,
      run: (ctx, a) => {
        const store = loadStore(ctx);
        store[a.key] = a.value;
        dumpStore(ctx, store);
        return true;
      },
    }),
    cas: defineFunction({
      args: (z) => z.object({ key: keyArg(z), value: z.unknown(), old_value: z.unknown() }),
      doc: `Check and set a value in the minion datastore: set \`\`key\`\` to \`\`value\`\` only when its
current value is \`\`old_value\`\`.

CLI Example:

    salt '*' data.cas <key> <value> <old_value>`,
      run: (ctx, a) => {
        const store = loadStore(ctx);
        if (!Object.hasOwn(store, a.key) || !pyEquals(store[a.key], a.old_value)) return false;
        store[a.key] = a.value;
        dumpStore(ctx, store);
        return true;
      },
    }),
    pop: defineFunction({
      args: (z) => z.object({ key: keyArg(z), default: z.unknown().optional() }),
      doc: `Pop (return & delete) a value from the minion datastore.

CLI Example:

    salt '*' data.pop <key> "there was no val"`,
      run: (ctx, a) => {
        const store = loadStore(ctx);
        const val = Object.hasOwn(store, a.key) ? store[a.key] : (a.default ?? null);
        delete store[a.key];
        dumpStore(ctx, store);
        return val;
      },
    }),
    get: defineFunction({
      args: (z) => z.object({ key: z.unknown(), default: z.unknown().optional() }),
      doc: `Get a (list of) value(s) from the minion datastore.

CLI Example:

    salt '*' data.get key
    salt '*' data.get '["key1", "key2"]'`,
      run: (ctx, a) => {
        const store = loadStore(ctx);
        const fallback = a.default ?? null;
        if (typeof a.key === 'string') return Object.hasOwn(store, a.key) ? store[a.key] : fallback;
        const keys = Array.isArray(a.key) ? a.key.map(String) : isMapping(a.key) ? Object.keys(a.key) : [];
        if (fallback === null) return keys.filter((k) => Object.hasOwn(store, k)).map((k) => store[k]);
        return keys.map((k) => (Object.hasOwn(store, k) ? store[k] : fallback));
      },
    }),
    keys: defineFunction({
      doc: `Get all keys from the minion datastore.

CLI Example:

    salt '*' data.keys`,
      run: (ctx) => Object.keys(loadStore(ctx)),
    }),
    values: defineFunction({
      doc: `Get values from the minion datastore.

CLI Example:

    salt '*' data.values`,
      run: (ctx) => Object.values(loadStore(ctx)),
    }),
    items: defineFunction({
      doc: `Get items from the minion datastore.

CLI Example:

    salt '*' data.items`,
      run: (ctx) => loadStore(ctx),
    }),
    has_key: defineFunction({
      args: (z) => z.object({ key: keyArg(z) }),
      doc: `Check if key is in the minion datastore.

CLI Example:

    salt '*' data.has_key <mykey>`,
      run: (ctx, a) => Object.hasOwn(loadStore(ctx), a.key),
    }),
  },
});
