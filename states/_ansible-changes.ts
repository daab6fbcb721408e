/**
 * Salt's `_changes` for the `ansible.playbooks` state: from the JSON callback's document, per
 * play and task, the hosts that changed (their `diff`, else `changes`) or failed, skipped or
 * were unreachable (their `results`, else `msg`). Plays and tasks with none are left out.
 */
type Dict = Record<string, unknown>;

const dict = (v: unknown): Dict => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Dict) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const pick = (d: Dict, key: string, fallback: string) =>
  key in d ? d[key] : fallback in d ? d[fallback] : {};

export function playChanges(plays: Readonly<Dict>): Dict {
  const changes: Dict = {};
  for (const play of list(plays.plays).map(dict)) {
    const taskChanges: Dict = {};
    for (const task of list(play.tasks).map(dict)) {
      const hostChanges: Dict = {};
      for (const [host, raw] of Object.entries(dict(task.hosts))) {
        const data = dict(raw);
        if (data.changed === true) hostChanges[host] = pick(data, 'diff', 'changes');
        else if (['failed', 'skipped', 'unreachable'].some((k) => k in data))
          hostChanges[host] = pick(data, 'results', 'msg');
      }
      if (Object.keys(hostChanges).length) taskChanges[String(dict(task.task).name)] = hostChanges;
    }
    if (Object.keys(taskChanges).length) changes[String(dict(play.play).name)] = taskChanges;
  }
  return changes;
}
