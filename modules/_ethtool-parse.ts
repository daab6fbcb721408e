/**
 * Reads the `ethtool` program's reports (`-g` rings, `-c` coalescing, `-i` driver, `-k`
 * features) into the records Salt's `ethtool` module returns. Salt asks the kernel through the
 * python-ethtool library; tsalt reads the same values from the program, `n/a` being 0.
 */

/** Salt's ring keys in the kernel struct's order, with the `ethtool -g` label of each. */
const RING: readonly (readonly [key: string, label: string, current: boolean])[] = [
  ['rx_max', 'RX', false],
  ['rx_mini_max', 'RX Mini', false],
  ['rx_jumbo_max', 'RX Jumbo', false],
  ['tx_max', 'TX', false],
  ['rx', 'RX', true],
  ['rx_mini', 'RX Mini', true],
  ['rx_jumbo', 'RX Jumbo', true],
  ['tx', 'TX', true],
];

const num = (v: string | undefined): number => {
  const n = Number.parseInt(v ?? '', 10);
  return Number.isNaN(n) ? 0 : n;
};

/** `ethtool -g` → Salt's `show_ring` record. */
export function parseRing(out: string): Record<string, number> {
  const max = new Map<string, string>();
  const cur = new Map<string, string>();
  let section: Map<string, string> | undefined;
  for (const line of out.split('\n')) {
    if (/^Pre-set maximums/.test(line)) section = max;
    else if (/^Current hardware settings/.test(line)) section = cur;
    else if (section && line.includes(':')) {
      const [label, value] = line.split(':', 2) as [string, string];
      section.set(label.trim(), value.trim());
    }
  }
  return Object.fromEntries(
    RING.map(([key, label, current]) => [key, num((current ? cur : max).get(label))]),
  );
}

/** Salt's coalescing keys in the kernel struct's order, with the `ethtool -c` label of each. */
const COALESCE: readonly (readonly [key: string, label: string])[] = [
  ['rx_usecs', 'rx-usecs'],
  ['rx_frames', 'rx-frames'],
  ['rx_usecs_irq', 'rx-usecs-irq'],
  ['rx_frames_irg', 'rx-frames-irq'],
  ['tx_usecs', 'tx-usecs'],
  ['tx_frames', 'tx-frames'],
  ['tx_usecs_irq', 'tx-usecs-irq'],
  ['tx_frames_irq', 'tx-frames-irq'],
  ['stats_block_usecs', 'stats-block-usecs'],
  ['adaptive_rx', 'Adaptive RX'],
  ['adaptive_tx', 'Adaptive TX'],
  ['pkt_rate_low', 'pkt-rate-low'],
  ['rx_usecs_low', 'rx-usecs-low'],
  ['rx_frames_low', 'rx-frame-low'],
  ['tx_usecs_low', 'tx-usecs-low'],
  ['tx_frames_low', 'tx-frame-low'],
  ['pkt_rate_high', 'pkt-rate-high'],
  ['rx_usecs_high', 'rx-usecs-high'],
  ['rx_frames_high', 'rx-frame-high'],
  ['tx_usecs_high', 'tx-usecs-high'],
  ['tx_frames_high', 'tx-frame-high'],
  ['sample_interval', 'sample-interval'],
];

/** The `ethtool -C` word for each of Salt's coalescing keys. */
export const COALESCE_SET: Readonly<Record<string, string>> = {
  rx_usecs: 'rx-usecs',
  rx_frames: 'rx-frames',
  rx_usecs_irq: 'rx-usecs-irq',
  rx_frames_irg: 'rx-frames-irq',
  tx_usecs: 'tx-usecs',
  tx_frames: 'tx-frames',
  tx_usecs_irq: 'tx-usecs-irq',
  tx_frames_irq: 'tx-frames-irq',
  stats_block_usecs: 'stats-block-usecs',
  adaptive_rx: 'adaptive-rx',
  adaptive_tx: 'adaptive-tx',
  pkt_rate_low: 'pkt-rate-low',
  rx_usecs_low: 'rx-usecs-low',
  rx_frames_low: 'rx-frames-low',
  tx_usecs_low: 'tx-usecs-low',
  tx_frames_low: 'tx-frames-low',
  pkt_rate_high: 'pkt-rate-high',
  rx_usecs_high: 'rx-usecs-high',
  rx_frames_high: 'rx-frames-high',
  tx_usecs_high: 'tx-usecs-high',
  tx_frames_high: 'tx-frames-high',
  sample_interval: 'sample-interval',
};

/** The `ethtool -G` word for each of Salt's ring keys (the maximums cannot be set). */
export const RING_SET: Readonly<Record<string, string | undefined>> = {
  rx: 'rx',
  rx_mini: 'rx-mini',
  rx_jumbo: 'rx-jumbo',
  tx: 'tx',
  rx_max: undefined,
  rx_mini_max: undefined,
  rx_jumbo_max: undefined,
  tx_max: undefined,
};

/** `ethtool -c` → Salt's `show_coalesce` record (adaptive flags as 1/0). */
export function parseCoalesce(out: string): Record<string, number> {
  const values = new Map<string, string>();
  for (const line of out.split('\n')) {
    const adaptive = /^Adaptive RX:\s*(\S+)\s+TX:\s*(\S+)/.exec(line);
    if (adaptive) {
      values.set('Adaptive RX', adaptive[1] === 'on' ? '1' : '0');
      values.set('Adaptive TX', adaptive[2] === 'on' ? '1' : '0');
    } else if (line.includes(':')) {
      const [label, value] = line.split(':', 2) as [string, string];
      values.set(label.trim(), value.trim());
    }
  }
  return Object.fromEntries(COALESCE.map(([key, label]) => [key, num(values.get(label))]));
}

/** `ethtool -i` → the driver name and bus address. */
export function parseDriver(out: string): { driver: string; bus_info: string } | undefined {
  const get = (label: string): string | undefined => {
    const m = new RegExp(`^${label}:[ \\t]*(.*)$`, 'm').exec(out);
    return m ? (m[1] ?? '').trim() : undefined;
  };
  const driver = get('driver');
  return driver === undefined ? undefined : { driver, bus_info: get('bus-info') ?? '' };
}

/** One feature's state from `ethtool -k` (`on`/`off`), undefined where it is not listed. */
export function featureState(out: string, name: string): string | undefined {
  const m = new RegExp(`^\\s*${name}:\\s*(on|off)`, 'm').exec(out);
  return m?.[1];
}
