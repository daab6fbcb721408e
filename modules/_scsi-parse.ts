/**
 * Salt's reading of `lsscsi -dLv` (and `-dLsv`, with sizes) output: a `[h:c:t:l]` line per
 * device (type, vendor/model words, device node, `[major:minor]`, size), then indented
 * `key=value` attribute lines and a `dir: <path> [<real path>]` line.
 */
import { pySplit } from './_status-proc.js';

export interface ScsiDevice {
  lun: string;
  size: string | null;
  major: string | null;
  minor: string | null;
  device: string;
  model: string;
  dir?: [string, string];
  [attr: string]: string | null | [string, string] | undefined;
}

/** The devices of an lsscsi listing, by their `[h:c:t:l]` key. */
export function parseLsscsi(out: string, withSize: boolean): Record<string, ScsiDevice> {
  const ret: Record<string, ScsiDevice> = {};
  let current: ScsiDevice | undefined;
  for (const line of out.split(/\r?\n/)) {
    if (line.startsWith('[')) {
      const comps = pySplit(line);
      const key = comps[0]!;
      const size = withSize ? (comps.pop() ?? null) : null;
      const majmin = comps.pop() ?? '';
      let [major, minor]: [string | null, string | null] = [null, null];
      if (majmin.startsWith('[')) {
        const mm = majmin.replace(/[[\]]/g, '').split(':');
        [major, minor] = [mm[0] ?? null, mm[1] ?? null];
      }
      const device = comps.pop() ?? '';
      const dev: ScsiDevice = {
        lun: key.replace(/[[\]]/g, ''),
        size,
        major,
        minor,
        device,
        model: comps.slice(3).join(' '),
      };
      ret[key] = dev;
      current = dev;
    } else if (line.startsWith(' ') && current) {
      const comps = pySplit(line);
      if (line.trim().startsWith('dir'))
        current.dir = [comps[1] ?? '', (comps[2] ?? '').replace(/[[\]]/g, '')];
      else {
        const [k, v] = line.trim().split('=');
        current[k!] = v ?? '';
      }
    }
  }
  return ret;
}
