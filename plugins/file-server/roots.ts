/**
 * The `roots` backend (Salt's `salt/fileserver/roots.py`): `file_roots`, a list of directories
 * per saltenv, the first that has a file winning. Salt's `__env__` entry serves any saltenv not
 * named, with `__env__` in its paths replaced by the saltenv.
 */
import type { FileServerBackendDef } from './backend-kind.js';

export const rootsBackend: FileServerBackendDef = {
  name: 'roots',
  create(opts) {
    return {
      async envs() {
        return Object.keys(opts.file_roots)
          .filter((e) => e !== '__env__')
          .sort();
      },
      async roots(saltenv) {
        const named = Object.hasOwn(opts.file_roots, saltenv) ? opts.file_roots[saltenv] : undefined;
        if (named) return named.map((dir) => ({ dir, mount: '' }));
        const any = opts.file_roots.__env__;
        return (any ?? []).map((dir) => ({ dir: dir.replaceAll('__env__', saltenv), mount: '' }));
      },
    };
  },
};
