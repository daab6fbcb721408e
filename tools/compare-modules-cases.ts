/**
 * The cases tools/compare-modules.ts runs on real Salt and on tsalt, and how two returns are
 * judged identical: `value` (deep equality, numbers by value) or `shape` (the same keys and JSON
 * types all the way down; list elements by the set of their shapes).
 */

export interface CompareCase {
  fun: string;
  args: string[];
  mode: 'value' | 'shape' | 'type' | 'entries';
}

const v = (fun: string, ...args: string[]): CompareCase => ({ fun, args, mode: 'value' });
const s = (fun: string, ...args: string[]): CompareCase => ({ fun, args, mode: 'shape' });
/** A mapping whose keys move (process ids): the shapes of its values, keys ignored. */
const e = (fun: string, ...args: string[]): CompareCase => ({ fun, args, mode: 'entries' });
/** Only the JSON type of the return (values that differ between the two processes, such as the environment). */
const t = (fun: string, ...args: string[]): CompareCase => ({ fun, args, mode: 'type' });

export const COMPARE_CASES: readonly CompareCase[] = [
  v('config.get', 'id'),
  v('config.get', 'my_opt:b:1'),
  v('config.get', 'my_opt|a', 'delimiter=|'),
  v('config.get', 'nope', 'default=fallback'),
  v('config.get', 'mongo.db'),
  v('config.get', 'redis.port'),
  v('config.get', 'virt:tunnel'),
  v('config.get', 'os_family'),
  v('config.get', 'my_opt', 'merge=recurse'),
  v('config.option', 'mongo.db'),
  v('config.option', 'redis.host'),
  v('config.option', 'redis.*', 'omit_all=True', 'wildcard=True'),
  v('config.option', 'nope'),
  v('config.merge', 'my_opt'),
  v('config.merge', 'nope'),
  v('config.dot_vals', 'mongo'),
  v('config.valid_fileproto', 'salt://x/y'),
  v('config.valid_fileproto', 'https://x/y'),
  v('config.valid_fileproto', '/etc/hosts'),
  v('match.glob', 'cmp*'),
  v('match.glob', 'web*'),
  v('match.glob', 'other', 'minion_id=other'),
  v('match.pcre', 'cmp\\d'),
  v('match.list', 'a,cmp1,b'),
  v('match.list', 'a,b'),
  v('match.grain', 'kernel:Linux'),
  v('match.grain', 'kernel:Win*'),
  v('match.grain_pcre', 'kernel:Lin.x'),
  v('match.compound', 'G@kernel:Linux and cmp*'),
  v('match.compound', 'G@kernel:Linux and not cmp*'),
  v('match.ipcidr', '127.0.0.0/8'),
  v('match.ipcidr', '10.255.255.0/24'),
  v('match.filter_by', '{"cmp*": 1, "default": 2}'),
  v('match.filter_by', '{"web*": 1, "default": 2}'),
  v('match.filter_by', '{"web*": 1}'),
  v('match.search_by', '{"a": ["cmp*"], "b": ["web*"], "c": ["x", "cmp1"]}'),
  v('match.search_by', '{"b": ["web*"]}'),
  v('defaults.get', 'formula'),
  v('defaults.get', 'formula:port'),
  v('defaults.get', 'formula:nope', 'default=9'),
  v('defaults.merge', '{"a": {"b": 1}, "l": [1]}', '{"a": {"c": 2}, "l": [2]}'),
  v('defaults.merge', '{"a": {"b": 1}, "l": [1]}', '{"a": {"c": 2}, "l": [2]}', 'merge_lists=True'),
  v('defaults.deepcopy', '{"a": [1, {"b": 2}]}'),
  v('defaults.update', '{"n1": {"x": 1}, "n2": {}}', '{"x": 0, "y": [1]}'),
  v('slsutil.merge', '{"a": {"b": 1}}', '{"a": {"c": 2}}'),
  v('slsutil.merge', '{"a": {"b": 1}, "z": 1}', '{"a": {"c": 2}}', 'strategy=overwrite'),
  v('slsutil.merge', '{"a": 1, "b": 2}', '{"a": 3}', 'strategy=list'),
  v('slsutil.update', '{"a": {"b": 1}, "l": [1]}', '{"a": {"c": 2}, "l": [1, 2]}', 'merge_lists=True'),
  v('slsutil.merge_all', '[{"a": 1}, {"a": 2, "b": 3}]'),
  v('slsutil.renderer', 'string=x={{ 2 * 3 }}', 'default_renderer=jinja'),
  v('slsutil.renderer', 'salt://tpl.sls'),
  v('data.clear'),
  v('data.items'),
  v('data.update', 'k1', 'v1'),
  v('data.update', 'k2', '[1, 2]'),
  v('data.get', 'k1'),
  v('data.get', 'nope'),
  v('data.get', '["k1", "nope"]'),
  v('data.get', '["k1", "nope"]', 'default=d'),
  v('data.keys'),
  v('data.values'),
  v('data.has_key', 'k2'),
  v('data.cas', 'k1', 'v2', 'wrong'),
  v('data.cas', 'k1', 'v2', 'v1'),
  v('data.pop', 'k2'),
  v('data.pop', 'k2', 'gone'),
  v('data.dump', '{"x": 1}'),
  v('data.load'),
  v('match.data', 'x:1'),
  v('environ.get', 'HOME'),
  v('environ.get', 'TSALT_NOPE', 'default=none'),
  v('environ.has_value', 'HOME'),
  v('environ.has_value', 'HOME', '/nowhere'),
  v('environ.item', '["HOME", "TSALT_NOPE"]'),
  v('environ.setval', 'TSALT_T1', 'one'),
  v('environ.setval', 'TSALT_T1', 'False', 'false_unsets=True'),
  v('environ.setenv', '{"TSALT_T2": "two", "TSALT_T3": false}'),
  t('environ.items'),
  v('random.hash', 'abc'),
  v('random.hash', 'abc', 'md5'),
  v('random.hash', 'abc', 'sha3_256'),
  v('random.str_encode', 'hello'),
  v('random.shadow_hash', 'saltsalt', 'secret'),
  v('random.shadow_hash', 'saltsalt', 'secret', 'sha256'),
  v('random.shadow_hash', 'salt', 'secret', 'md5'),
  s('random.get_str', '12'),
  s('random.rand_int', '1', '5'),
  s('status.uptime'),
  s('status.loadavg'),
  s('status.meminfo'),
  s('status.cpuinfo'),
  s('status.cpustats'),
  s('status.diskstats'),
  s('status.diskusage', '/'),
  s('status.diskusage'),
  s('status.vmstats'),
  s('status.netdev'),
  s('status.netstats'),
  e('status.procs'),
  t('status.pid', 'init'),
  s('status.w'),
  v('status.version'),
  v('status.nproc'),
  s('status.all_status'),
  s('disk.usage'),
  s('disk.inodeusage'),
  v('disk.percent'),
  v('disk.percent', '/'),
  v('disk.blkid'),
  t('disk.fstype', '/'),
  v('disk.usage', 'z'),
  v('mount.active'),
  s('mount.active', 'extended=True'),
  v('mount.fstab'),
  v('mount.is_mounted', '/'),
  v('mount.is_mounted', '/nonexistent'),
  v('mount.umount', '/nonexistent'),
  v('mount.swaps'),
  s('ps.top', '3', '1'),
  v('ps.pgrep', 'tsalt-nothing-like-this'),
  s('ps.pgrep', 'init'),
  v('ps.proc_info', '1', 'attrs=["pid", "name", "ppid", "cmdline", "username", "create_time"]'),
  s('ps.proc_info', '1', 'attrs=["cpu_times", "memory_info", "status", "uids", "gids", "nice"]'),
  v('ps.kill_pid', '999999'),
  v('ps.pkill', 'tsalt-nothing-like-this'),
  v('ps.num_cpus'),
  v('ps.total_physical_memory'),
  v('ps.boot_time'),
  v('ps.boot_time', 'time_format=%Y-%m-%d'),
  v('ps.disk_partitions'),
  s('ps.disk_partitions', 'all=True'),
  s('ps.disk_usage', '/'),
  s('ps.network_io_counters'),
  s('ps.network_io_counters', 'interface=lo'),
  v('ps.network_io_counters', 'interface=nope0'),
  v('ps.get_users'),
  s('ps.status', 'sleeping'),
  v('ps.status', 'parked'),
  v('network.interfaces'),
  v('network.ip_addrs'),
  v('network.ip_addrs', 'include_loopback=True'),
  v('network.ip_addrs', 'type=private'),
  v('network.ip_addrs', 'cidr=192.0.2.0/24'),
  v('network.ip_addrs', 'interface=lo', 'include_loopback=True'),
  v('network.ip_addrs6'),
  v('network.ip_addrs6', 'include_loopback=True'),
  v('network.interface', 'lo'),
  v('network.interface', 'nope0'),
  v('network.interface_ip', 'lo'),
  v('network.hw_addr', 'lo'),
  v('network.hwaddr', 'eth0'),
  v('network.subnets'),
  v('network.subnets6'),
  v('network.in_subnet', '127.0.0.0/8'),
  v('network.in_subnet', '192.0.2.0/24'),
  v('network.in_subnet', '192.0.2.1/24'),
  v('network.ip_in_subnet', '172.17.0.4', '172.16.0.0/12'),
  v('network.ip_in_subnet', '10.1.1.1', '172.16.0.0/12'),
  v('network.calc_net', '172.17.0.5', '255.255.255.240'),
  v('network.calc_net', '2a02:f6e:a000:80:84d8:8332:7866:4e07/64'),
  v('network.convert_cidr', '172.31.0.0/16'),
  v('network.convert_cidr', '10.1.2.3/8'),
  v('network.is_private', '10.0.0.3'),
  v('network.is_private', '8.8.8.8'),
  v('network.is_loopback', '127.0.0.1'),
  v('network.get_hostname'),
  v('network.get_fqdn'),
  v('network.routes'),
  v('network.routes', 'inet6'),
  v('network.default_route'),
  v('network.default_route', 'inet'),
  v('network.get_route', '192.0.2.1'),
  s('network.netstat'),
  s('network.active_tcp'),
  v('network.arp'),
  v('network.connect', '127.0.0.1', '1'),
  v('network.connect', 'host=127.0.0.1'),
  v('network.ping', '127.0.0.1', 'return_boolean=True'),
];

function kind(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'array';
  return typeof x;
}

/** Deep equality of two JSON values. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(sortKeys);
  if (x && typeof x === 'object') {
    return Object.fromEntries(
      Object.keys(x)
        .sort()
        .map((k) => [k, sortKeys((x as Record<string, unknown>)[k])]),
    );
  }
  return x;
}

/** The shape of a JSON value: its type, the keys of a mapping, the distinct element shapes of a list. */
export function shapeOf(x: unknown): unknown {
  if (Array.isArray(x)) return { array: [...new Set(x.map((e) => JSON.stringify(shapeOf(e))))].sort() };
  if (x && typeof x === 'object') {
    return Object.fromEntries(
      Object.keys(x)
        .sort()
        .map((k) => [k, shapeOf((x as Record<string, unknown>)[k])]),
    );
  }
  return kind(x);
}

/** The same JSON type (null, array, object, string, number, boolean). */
export function sameType(a: unknown, b: unknown): boolean {
  return kind(a) === kind(b);
}

/** The shapes of a mapping's values as a set, its keys ignored. */
export function sameEntries(a: unknown, b: unknown): boolean {
  const vals = (x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? [...new Set(Object.values(x).map((y) => JSON.stringify(shapeOf(y))))].sort()
      : kind(x);
  return JSON.stringify(vals(a)) === JSON.stringify(vals(b));
}

export function sameShape(a: unknown, b: unknown): boolean {
  return JSON.stringify(shapeOf(a)) === JSON.stringify(shapeOf(b));
}
