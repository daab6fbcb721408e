/** Issue 19's file-server figures: `cp.get_file` of a large file and 10,000 `_file_hash` answers. */
import { fileServerBench } from '../file-server-bench.js';
import { details, print, report } from '../report.js';

export async function fileServerSection(quick: boolean): Promise<void> {
  const r = await fileServerBench({ quick, log: print });
  details.fileServer = r;
  report({
    name: `file server: cp.get_file of ${r.sizeMB} MB`,
    value: r.getFileMBps,
    unit: 'MB/s',
    method: `salt m1 cp.get_file salt://big.bin (file_buffer_size 256 KiB chunks over the aes channel), ${r.getFileSeconds.toFixed(2)} s CLI to return; again unchanged: ${r.unchangedSeconds.toFixed(2)} s`,
  });
  report({
    name: 'file server: peak RSS during cp.get_file, master / minion (all processes)',
    value: r.masterPeakRssMiB,
    unit: 'MiB',
    method: `sampled every 50 ms; minion ${r.minionPeakRssMiB.toFixed(0)} MiB; largest single process: master ${r.masterPeakProcessRssMiB.toFixed(0)} MiB, minion ${r.minionPeakProcessRssMiB.toFixed(0)} MiB`,
  });
  report({
    name: `file server: _file_hash of ${r.hashFiles} files, in-process`,
    value: r.hashColdMs,
    unit: 'ms',
    method: `FileServer.fileHash for each file, cold; ${r.hashWarmMs.toFixed(0)} ms with the mtime-keyed hash cache warm`,
  });
  report({
    name: `file server: ${r.hashFiles} hash checks over the wire`,
    value: r.cacheMasterCheckSeconds,
    unit: 's',
    method: `cp.cache_dir salt://many again with every file unchanged: one _file_hash_and_stat round trip per file; first run (hash + download) ${r.cacheMasterFirstSeconds.toFixed(1)} s`,
  });
}
