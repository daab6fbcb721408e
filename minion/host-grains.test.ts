import { afterEach, describe, expect, it } from 'vitest';
import { HOST_GRAINS_ENV, hostGrainsEnv, takeHostGrains } from './host-grains.js';

describe('host grains handed to a job process', () => {
  afterEach(() => {
    delete process.env[HOST_GRAINS_ENV];
  });

  it('round-trips through the environment and leaves it', () => {
    const host = { id: 'm1', pid: 4242, ip4_interfaces: { lo: ['127.0.0.1'] }, num_cpus: 2, gpus: [] };
    Object.assign(process.env, hostGrainsEnv(host));
    expect(takeHostGrains()).toEqual(host);
    expect(process.env[HOST_GRAINS_ENV]).toBeUndefined();
    expect(takeHostGrains()).toBeUndefined();
  });

  it('hands nothing over past 64 KiB, and a process handed garbage probes the host itself', () => {
    expect(hostGrainsEnv({ big: 'x'.repeat(70 * 1024) })).toEqual({});
    for (const bad of ['not json', '[1, 2]', 'null', '"text"']) {
      process.env[HOST_GRAINS_ENV] = bad;
      expect(takeHostGrains()).toBeUndefined();
    }
  });
});
