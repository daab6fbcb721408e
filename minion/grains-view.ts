/**
 * The grains every job sees: core grains < the grains file (modules/_grains-file.ts) < the
 * config's `grains`, re-read only when a cheap `stat` shows the file changed.
 */
import { statSync } from 'node:fs';
import type { Grains } from '../kernel/loader/define.js';
import { readGrainsFile } from '../modules/_grains-file.js';
import { mergeGrains } from './grains-merge.js';

/** A cheap identity of the file's current version, or '' when absent. */
function fileStamp(path: string): string {
  // checked after every job: an absent file must not cost a thrown error
  try {
    const s = statSync(path, { bigint: true, throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeNs}` : '';
  } catch {
    return '';
  }
}

export interface GrainsViewOptions {
  /** Core grains (computed once). */
  core: Readonly<Record<string, unknown>>;
  /** The host's part of them (grains.ts's `coreGrains`), which job processes are handed (host-grains.ts). */
  host?: Readonly<Record<string, unknown>>;
  /** The grains file path. */
  file: string;
  /** The minion config's `grains` option. */
  configured: Readonly<Record<string, unknown>>;
  /** Salt's `grains_deep_merge`. */
  deep?: boolean;
  /** Told when the grains file cannot be parsed. */
  onError?: (message: string) => void;
}

/** The current grains: core < grains file < config `grains`, re-read when the file changes. */
export class GrainsView {
  readonly #opts: GrainsViewOptions;
  #stamp: string | undefined;
  #grains: Record<string, unknown> = {};

  constructor(opts: GrainsViewOptions) {
    this.#opts = opts;
  }

  /** The host grains this view was made over, when it was made by `minionGrainsView`. */
  get host(): Readonly<Record<string, unknown>> | undefined {
    return this.#opts.host;
  }

  current(): Grains {
    const stamp = fileStamp(this.#opts.file);
    if (stamp !== this.#stamp) {
      this.#stamp = stamp;
      const { grains, error } = stamp ? readGrainsFile(this.#opts.file) : { grains: {} };
      if (error) this.#opts.onError?.(error);
      const deep = this.#opts.deep === true;
      this.#grains = mergeGrains(mergeGrains(this.#opts.core, grains, deep), this.#opts.configured, deep);
    }
    return this.#grains;
  }
}
