/**
 * The bonding options Salt's Debian `ip` module accepts per bonding mode (`_parse_settings_bond`
 * and its seven helpers), with its defaults and its messages for bad values.
 */

import { pythonError } from './_py-exception.js';
import { parsePyInt } from './_py-int.js';

export const CONFIG_TRUE: readonly (string | boolean)[] = ['yes', 'on', 'true', '1', true];
export const CONFIG_FALSE: readonly (string | boolean)[] = ['no', 'off', 'false', '0', false];

/** Python's `value in list` for these lists: `1 == True`, `0 == False`. */
export function inConfig(list: readonly (string | boolean)[], v: unknown): boolean {
  if (typeof v === 'number') return list.includes(v === 1 ? true : v === 0 ? false : 'none');
  return (typeof v === 'string' || typeof v === 'boolean') && list.includes(v);
}

const showExpected = (x: string | boolean): string => (typeof x === 'boolean' ? (x ? 'True' : 'False') : x);

/** Salt's `_raise_error_iface`: an AttributeError naming the interface, option and expected values. */
export function ifaceError(iface: string, option: unknown, expected: readonly (string | boolean)[]): Error {
  const opt = typeof option === 'string' ? option : String(option);
  return pythonError(
    'AttributeError',
    `Invalid option -- Interface: ${iface}, Option: ${opt}, Expected: [${expected.map(showExpected).join('|')}]`,
  );
}

const BOND_DEFAULTS: Readonly<Record<string, string>> = {
  ad_select: '0',
  miimon: '100',
  arp_interval: '250',
  downdelay: '200',
  lacp_rate: '0',
  updelay: '0',
  use_carrier: 'on',
};

/** Python's `int(v)` succeeding (a str of an int, an int, a float, a bool). */
function intOk(v: unknown): boolean {
  if (typeof v === 'number' || typeof v === 'boolean') return true;
  return typeof v === 'string' && parsePyInt(v) !== undefined;
}

type Opts = Record<string, unknown>;
type Bond = Record<string, unknown>;

function timings(opts: Opts, iface: string, bond: Bond, names: readonly string[]): void {
  for (const name of names) {
    if (!(name in opts)) {
      bond[name] = BOND_DEFAULTS[name];
      continue;
    }
    let valid = ['integer'];
    if (name === 'lacp_rate') {
      if (opts[name] === 'fast') opts[name] = '1';
      if (opts[name] === 'slow') opts[name] = '0';
      valid = ['fast', '1', 'slow', '0'];
    }
    if (!intOk(opts[name])) throw ifaceError(iface, name, valid);
    bond[name] = opts[name];
  }
}

function useCarrier(opts: Opts, iface: string, bond: Bond): void {
  if (!('use_carrier' in opts)) bond.use_carrier = BOND_DEFAULTS.use_carrier;
  else if (inConfig(CONFIG_TRUE, opts.use_carrier)) bond.use_carrier = '1';
  else if (inConfig(CONFIG_FALSE, opts.use_carrier)) bond.use_carrier = '0';
  else throw ifaceError(iface, 'use_carrier', [...CONFIG_TRUE, ...CONFIG_FALSE]);
}

function arp(opts: Opts, iface: string, bond: Bond): void {
  const valid = ['list of ips (up to 16)'];
  const targets = opts.arp_ip_target;
  if (!Array.isArray(targets) || targets.length < 1 || targets.length > 16)
    throw ifaceError(iface, 'arp_ip_target', valid);
  bond.arp_ip_target = targets.map(String).join(',');
  if (!('arp_interval' in opts)) bond.arp_interval = BOND_DEFAULTS.arp_interval;
  else if (intOk(opts.arp_interval)) bond.arp_interval = opts.arp_interval;
  else throw ifaceError(iface, 'arp_interval', ['integer']);
}

function hashing(opts: Opts, iface: string, bond: Bond): void {
  if (!('hashing-algorithm' in opts)) return;
  const valid = ['layer2', 'layer2+3', 'layer3+4'];
  const v = opts['hashing-algorithm'];
  if (typeof v === 'string' && valid.includes(v)) bond.xmit_hash_policy = v;
  else throw ifaceError(iface, 'hashing-algorithm', valid);
}

const MODES: readonly (readonly [string, string])[] = [
  ['balance-rr', '0'],
  ['active-backup', '1'],
  ['balance-xor', '2'],
  ['broadcast', '3'],
  ['802.3ad', '4'],
  ['balance-tlb', '5'],
  ['balance-alb', '6'],
];

/**
 * The bonding options of `opts` for its `mode`, in Salt's order. `ubuntu16` is Salt's test that
 * skips `use_carrier` for active-backup on Ubuntu 16 and later.
 */
export function bondSettings(opts: Opts, iface: string, ubuntu16: boolean): Bond {
  if (!('mode' in opts)) throw pythonError('KeyError', "'mode'");
  const mode = MODES.findIndex(([name, num]) => opts.mode === name || opts.mode === num);
  if (mode < 0) throw ifaceError(iface, 'mode', [...MODES.map(([, n]) => n), ...MODES.map(([name]) => name)]);
  const bond: Bond = { mode: String(mode) };
  if (mode === 0 || mode === 2) {
    arp(opts, iface, bond);
    if (mode === 2) hashing(opts, iface, bond);
    return bond;
  }
  timings(
    opts,
    iface,
    bond,
    mode === 4
      ? ['miimon', 'downdelay', 'updelay', 'lacp_rate', 'ad_select']
      : ['miimon', 'downdelay', 'updelay'],
  );
  if (mode === 1 && 'primary' in opts) bond.primary = opts.primary;
  if (mode !== 1 || !ubuntu16) useCarrier(opts, iface, bond);
  if (mode === 4) hashing(opts, iface, bond);
  if ((mode === 5 || mode === 6) && 'primary' in opts) bond.primary = opts.primary;
  return bond;
}
