/**
 * The parts of a Zabbix template that Salt's `zabbix_template.present` manages, as Salt 3006
 * describes them: for each part, the API object queried, how its own (not inherited) members
 * are found under their parent, the key that identifies a member, and the parent-id field a
 * new member gets. Applications and screens are still listed: Zabbix 5.4+ has no such API
 * objects, and Salt queries them all the same (its `application.get` fails there).
 */

/** How one part is queried and written. */
export interface TemplatePart {
  /** The API object (`item`, `discoveryrule`). */
  readonly qtype: string;
  /** The `.get` parameter that selects the members of one parent (`templateids`). */
  readonly qselectpid: string;
  /**
   * The field a new member gets the parent's id in; null stands for Python's None, which
   * Salt puts in as a key all the same (sent as JSON's "null").
   */
  readonly pidRefName: string | null;
  /** A second field that gets the template's id (item prototypes' `hostid`). */
  readonly pidRefName2?: string;
  /** The key of `.create`'s answer listing the new ids. */
  readonly resIdName: string | null;
  /** The `.get` call's own parameters. */
  readonly output: Readonly<Record<string, string>>;
  /** `inherited` (asked again with it, to leave those out) or `noInheritance` (not). */
  readonly inherited: 'inherited' | 'noInheritance';
  /** Whether a member's list of these becomes a list of ids on create/update. */
  readonly adjust: boolean;
  /** The key that identifies a member among its siblings. */
  readonly filter: string;
}

/** The template's own fields that are lists of relations (an empty list when not given). */
export const TEMPLATE_RELATIONS = ['groups', 'hosts', 'macros'] as const;

/** The template's parts in the order Salt manages them. */
export const TEMPLATE_PART_ORDER = [
  'applications',
  'items',
  'gitems',
  'graphs',
  'screens',
  'httpTests',
  'triggers',
  'discoveries',
] as const;

/** A discovery rule's parts, in Salt's order. */
export const DISCOVERY_PART_ORDER = [
  'itemprototypes',
  'triggerprototypes',
  'graphprototypes',
  'hostprototypes',
] as const;

const ofTemplate = { qselectpid: 'templateids', inherited: 'inherited', adjust: false } as const;
const ofRule = { qselectpid: 'discoveryids', inherited: 'inherited', adjust: false } as const;

export const TEMPLATE_PARTS: Readonly<Record<string, TemplatePart>> = {
  applications: {
    ...ofTemplate,
    qtype: 'application',
    pidRefName: 'hostid',
    resIdName: 'applicationids',
    output: { output: 'extend', templated: 'true' },
    adjust: true,
    filter: 'name',
  },
  items: {
    ...ofTemplate,
    qtype: 'item',
    pidRefName: 'hostid',
    resIdName: 'itemids',
    output: { output: 'extend', selectApplications: 'extend', templated: 'true' },
    filter: 'name',
  },
  triggers: {
    ...ofTemplate,
    qtype: 'trigger',
    pidRefName: null,
    resIdName: 'triggerids',
    output: { output: 'extend', selectDependencies: 'expand', templated: 'true', expandExpression: 'true' },
    filter: 'description',
  },
  graphs: {
    ...ofTemplate,
    qtype: 'graph',
    pidRefName: null,
    resIdName: 'graphids',
    output: { output: 'extend', selectGraphItems: 'extend', templated: 'true' },
    filter: 'name',
  },
  // Salt selects graph items by `graphids` set to the template's id.
  gitems: {
    ...ofTemplate,
    qtype: 'graphitem',
    qselectpid: 'graphids',
    pidRefName: null,
    resIdName: null,
    output: { output: 'extend' },
    filter: 'name',
  },
  screens: {
    ...ofTemplate,
    qtype: 'templatescreen',
    pidRefName: 'templateid',
    resIdName: 'screenids',
    output: {
      output: 'extend',
      selectUsers: 'extend',
      selectUserGroups: 'extend',
      selectScreenItems: 'extend',
      noInheritance: 'true',
    },
    inherited: 'noInheritance',
    filter: 'name',
  },
  discoveries: {
    ...ofTemplate,
    qtype: 'discoveryrule',
    pidRefName: 'hostid',
    resIdName: 'itemids',
    output: { output: 'extend', selectFilter: 'extend', templated: 'true' },
    filter: 'key_',
  },
  httpTests: {
    ...ofTemplate,
    qtype: 'httptest',
    pidRefName: 'hostid',
    resIdName: 'httptestids',
    output: { output: 'extend', selectSteps: 'extend', templated: 'true' },
    filter: 'name',
  },
  itemprototypes: {
    ...ofRule,
    qtype: 'itemprototype',
    pidRefName: 'ruleid',
    pidRefName2: 'hostid',
    resIdName: 'itemids',
    output: { output: 'extend', selectSteps: 'extend', selectApplications: 'extend', templated: 'true' },
    filter: 'name',
  },
  triggerprototypes: {
    ...ofRule,
    qtype: 'triggerprototype',
    pidRefName: null,
    resIdName: 'triggerids',
    output: {
      output: 'extend',
      selectTags: 'extend',
      selectDependencies: 'extend',
      templated: 'true',
      expandExpression: 'true',
    },
    filter: 'description',
  },
  graphprototypes: {
    ...ofRule,
    qtype: 'graphprototype',
    pidRefName: null,
    resIdName: 'graphids',
    output: { output: 'extend', selectGraphItems: 'extend', templated: 'true' },
    filter: 'name',
  },
  hostprototypes: {
    ...ofRule,
    qtype: 'hostprototype',
    pidRefName: 'ruleid',
    resIdName: 'hostids',
    output: {
      output: 'extend',
      selectGroupLinks: 'expand',
      selectGroupPrototypes: 'expand',
      selectTemplates: 'expand',
    },
    filter: 'host',
  },
};
