/**
 * Salt's `file` state module (`salt/states/file.py`): files, directories, symlinks and text
 * edits held in a wanted state: `managed`, `directory`, `absent`, `exists`, `missing`,
 * `touch`, `symlink`, `copy`, `rename`, `append`, `prepend`, `replace`, `blockreplace`,
 * `comment`, `uncomment`, `serialize`, `line`, `keyvalue`, `recurse`, `accumulated`,
 * `tidied`, `patch`, `hardlink`, `cached`, `not_cached`, `decode`, `pruned`, `mknod`, `retention_schedule`, `shortcut` (Windows only, as in Salt). Like Salt's, it has no `mod_watch`. Each function lives
 * in a `_file-*.ts` helper; the execution side is `modules/file.ts` and its `_file-*.ts`.
 */
import { defineStateModule } from '../plugins/states/index.js';
import { accumulated } from './_file-accumulated.js';
import { cached, notCached } from './_file-cached.js';
import { modRunCheckCmd } from './_file-check-cmd.js';
import { decode } from './_file-decode.js';
import { directory } from './_file-directory.js';
import { hardlink } from './_file-hardlink.js';
import { keyvalue } from './_file-keyvalue.js';
import { line } from './_file-line.js';
import { managed } from './_file-managed.js';
import { mknod } from './_file-mknod.js';
import { patch } from './_file-patch.js';
import { absent, copy, exists, missing, rename, symlink, touch } from './_file-paths.js';
import { pruned } from './_file-pruned.js';
import { recurse } from './_file-recurse.js';
import { retentionSchedule } from './_file-retention.js';
import { serialize } from './_file-serialize.js';
import { shortcut } from './_file-shortcut.js';
import { append, blockreplace, comment, prepend, replace, uncomment } from './_file-text.js';
import { tidied } from './_file-tidied.js';
import { modBeacon } from './_mod-beacon.js';

export default defineStateModule({
  name: 'file',
  doc: 'Operations on regular files, special files, directories, and symlinks.',
  functions: {
    managed,
    directory,
    absent,
    exists,
    missing,
    touch,
    symlink,
    copy,
    rename,
    append,
    prepend,
    replace,
    blockreplace,
    comment,
    uncomment,
    serialize,
    line,
    keyvalue,
    recurse,
    accumulated,
    tidied,
    patch,
    hardlink,
    cached,
    not_cached: notCached,
    decode,
    pruned,
    mknod,
    shortcut,
    retention_schedule: retentionSchedule,
    mod_run_check_cmd: modRunCheckCmd,
    mod_beacon: modBeacon({
      module: 'file',
      beacon: 'inotify',
      supported: ['managed', 'directory'],
      callsIt: 'beacon',
      settings: (name, sfun, data) => {
        const watch: Record<string, unknown> = { mask: data('mask', ['create', 'delete', 'modify']) };
        if (sfun === 'directory')
          Object.assign(watch, {
            auto_add: data('auto_add', true),
            recurse: data('recurse', true),
            exclude: data('exclude', []),
          });
        return {
          files: { [name]: watch },
          interval: data('interval', 60),
          coalesce: data('coalesce', false),
        };
      },
    }),
  },
});
