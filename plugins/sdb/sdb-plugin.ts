/**
 * The sdb plugin: declares the `sdb` plugin kind (define.ts) and lets this process's sdb
 * lookups see the drivers other plugins register with `api.kinds.register('sdb', driver)`.
 * The built-in drivers and the driver files of extension folders and packages need no plugin:
 * they are found by name wherever a lookup runs (find-driver.ts).
 */
import { definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { setProcessSdbKinds } from './find-driver.js';
import { sdbOptions } from './options.js';

export function sdbPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:sdb',
    options: sdbOptions,
    daemons: ['master', 'minion'],
    apply(api) {
      setProcessSdbKinds(api.kinds);
    },
  });
}
