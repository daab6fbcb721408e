/**
 * `reload_modules`, `reload_pillar` and `reload_grains` after a state (Salt's
 * `State.check_refresh` in `salt/state.py`): grains and pillar are refreshed when asked,
 * modules when asked or when the state changed something that holds modules (a package, a
 * `file.recurse`, a managed `.js`/`.ts` file). tsalt calls the execution functions that
 * exist on this minion (`saltutil.refresh_grains`, `saltutil.refresh_pillar` and
 * `pillar.items` for the states that follow, `saltutil.refresh_modules`); a failure is logged.
 */
import type { Entry, Low, Run } from './run-state.js';

async function callIfThere(run: Run, fun: string): Promise<unknown> {
  try {
    if (!(await run.rc.exec.functions.get(fun))) return undefined;
    return await run.rc.exec.call(fun);
  } catch (err) {
    run.rc.exec.log.warn({ err, fun }, 'refresh after a state failed');
    return undefined;
  }
}

async function refreshModules(run: Run): Promise<void> {
  await callIfThere(run, 'saltutil.refresh_modules');
}

/** What Salt's `check_refresh` does after `low` returned `ret`. */
export async function checkRefresh(run: Run, low: Low, ret: Entry): Promise<void> {
  let reload = false;
  if (low.reload_grains) {
    await callIfThere(run, 'saltutil.refresh_grains');
    reload = true;
  }
  if (low.reload_pillar) {
    await callIfThere(run, 'saltutil.refresh_pillar');
    const pillar = await callIfThere(run, 'pillar.items');
    if (pillar && typeof pillar === 'object' && !Array.isArray(pillar))
      run.pillar = pillar as Record<string, unknown>;
    reload = true;
  }
  if (!ret.changes || Object.keys(ret.changes).length === 0) {
    if (low.force_reload_modules) await refreshModules(run);
    return;
  }
  if (low.reload_modules || reload) {
    await refreshModules(run);
    return;
  }
  const name = String(low.name);
  const holdsModules =
    (low.state === 'file' &&
      ((low.fun === 'managed' && /\.(js|mjs|cjs|ts)$/.test(name)) ||
        low.fun === 'recurse' ||
        (low.fun === 'symlink' && name.includes('bin')))) ||
    ['pkg', 'ports', 'pip', 'npm'].includes(low.state);
  if (holdsModules) await refreshModules(run);
}
