import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import service from './service.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-service-beacon-'));
const name = `tsalt-bsvc-${process.pid}`;
const script = `/etc/init.d/${name}`;
const flag = join(dir, 'running');
const pidFile = join(dir, 'svc.pid');
const up = () => writeFileSync(flag, '');
const down = () => rmSync(flag, { force: true });
const event = (running: boolean, extra: Record<string, unknown> = {}) => ({
  [name]: { running, ...extra },
  service_name: name,
  tag: name,
});

describe('service beacon', () => {
  // a throwaway SysV service: "running" while its flag file exists
  writeFileSync(script, `#!/bin/sh\ncase "$1" in status) [ -e ${flag} ] ;; esac\n`);
  chmodSync(script, 0o755);
  afterAll(() => {
    rmSync(script, { force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it("validates as Salt's", () => {
    expect(service.validate?.({ services: { cron: {} } })).toBe(true);
    expect(service.validate?.({ onchangeonly: true })).toBe(
      'Configuration for service beacon requires services.',
    );
    expect(service.validate?.({ services: ['cron'] })).toBe(
      'Services configuration item for service beacon must be a dictionary.',
    );
    expect(service.validate?.({ services: { cron: null } })).toBe(
      'Configuration for service beacon must be a list of dictionaries.',
    );
  });

  it('fires every run; uncleanshutdown tells whether a stopped service left its pid file', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    const config = { services: { [name]: { uncleanshutdown: pidFile } } };
    writeFileSync(pidFile, '1');
    expect(await service.beacon(ctx, config)).toEqual([event(false, { uncleanshutdown: true })]);
    up();
    expect(await service.beacon(ctx, config)).toEqual([event(true)]);
    down();
    rmSync(pidFile);
    expect(await service.beacon(ctx, config)).toEqual([event(false, { uncleanshutdown: false })]);
    expect(existsSync(pidFile)).toBe(false);
  }, 240_000);

  it('onchangeonly fires at startup and on a change; delay holds the change back; emitatstartup False skips the first', async () => {
    const ctx = beaconCtx(join(dir, 'salt'));
    down();
    const changes = { services: { [name]: { onchangeonly: true } } };
    expect(await service.beacon(ctx, changes)).toEqual([event(false)]);
    expect(await service.beacon(ctx, changes)).toEqual([]);
    up();
    expect(await service.beacon(ctx, changes)).toEqual([event(true)]);

    const quiet = beaconCtx(join(dir, 'salt'));
    const delayed = { services: { [name]: { onchangeonly: true, emitatstartup: false, delay: 1 } } };
    expect(await service.beacon(quiet, delayed)).toEqual([]);
    down();
    expect(await service.beacon(quiet, delayed)).toEqual([]);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await service.beacon(quiet, delayed)).toEqual([event(false)]);
    expect(await service.beacon(quiet, delayed)).toEqual([]);
  }, 240_000);
});
