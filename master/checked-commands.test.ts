import { describe, expect, it } from 'vitest';
import type { CommandDef } from '../kernel/commands/define.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { SaltError } from '../kernel/errors.js';
import { silentLogger } from '../kernel/log.js';
import type { KernelPlugin } from '../kernel/plugin.js';
import { createMasterKernel } from './master-kernel.js';

/** The master kernel with one plugin registering `def` (a config with no optional built-ins). */
function withCommand(def: Partial<CommandDef>): Promise<string> {
  const plugin: KernelPlugin = {
    name: 'acme-bad',
    apply: (api) => api.commands.register({ cmd: '_x', enc: 'aes', handle: () => 1, ...def } as CommandDef),
  };
  const config = {
    plugins: [plugin],
    event_return: [],
    extra: {},
  } as unknown as ResolvedMasterConfig;
  return createMasterKernel(config, silentLogger()).then(
    () => 'accepted',
    (e: unknown) => (e as SaltError).code,
  );
}

describe('the master kernel refuses request commands the request server could not honour', () => {
  it('with SALT_ERR_COMMAND_INVALID', async () => {
    expect(await withCommand({ enc: 'clear', lane: 'light' })).toBe('SALT_ERR_COMMAND_INVALID');
    expect(await withCommand({ reply: 'private', lane: 'light' })).toBe('SALT_ERR_COMMAND_INVALID');
    expect(await withCommand({ enc: 'clear', reply: 'private' })).toBe('SALT_ERR_COMMAND_INVALID');
    expect(await withCommand({ cmd: '' })).toBe('SALT_ERR_COMMAND_INVALID');
    expect(await withCommand({ reply: 'private', lane: 'worker' })).toBe('accepted');
  });
});
