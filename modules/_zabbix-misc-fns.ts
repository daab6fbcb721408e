/**
 * Salt's `zabbix` user macro, media type and template functions, `run_query`,
 * `configuration_import` and the comparison helpers the states use.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineFunction, type ExecContext } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName } from './_py-type-name.js';
import {
  apiVersion,
  asList,
  field,
  type Kwargs,
  orFalse,
  paramsExtend,
  resultKey,
  versionCmp,
  withLogin,
} from './_zabbix-api.js';
import { cli, opt, req } from './_zabbix-args.js';
import {
  compareParams,
  objectIdByParams,
  runQuery,
  substituteParams,
  ZABBIX_ID_MAPPER,
} from './_zabbix-compare.js';

/** Salt's macro name: a dict's first key, wrapped in braces unless it starts or ends with one. */
function macroName(macro: unknown): string {
  let m = macro;
  if (m && typeof m === 'object' && !Array.isArray(m)) m = `{${Object.keys(m)[0]}}`;
  if (typeof m !== 'string')
    throw pythonError('AttributeError', `'${pyShortTypeName(m)}' object has no attribute 'startswith'`);
  return !m.startsWith('{') && !m.endsWith('}') ? `{${m}}` : m;
}

/** `list[0]`, with Python's IndexError on an empty list. */
function first(v: unknown): unknown {
  if (Array.isArray(v)) {
    if (v.length === 0) throw pythonError('IndexError', 'list index out of range');
    return v[0];
  }
  return field(v, '0');
}

/** A macro call: `params` with the macro, value and the call's keywords (name dropped), `result[key][0]`. */
const macroCall = (
  ctx: ExecContext,
  kw: Kwargs,
  method: string,
  build: () => Record<string, unknown>,
  key: string,
) =>
  withLogin(ctx, kw, async (s) => {
    const params = paramsExtend(build(), kw, true);
    return first(field(await s.result(method, params), key));
  });

/** Salt's default `configuration.import` rules for an API version. */
function importRules(version: unknown): Record<string, Record<string, boolean>> {
  const cud = { createMissing: true, updateExisting: true, deleteMissing: false };
  const none = { createMissing: false, updateExisting: false };
  const cu = { createMissing: true, updateExisting: true };
  const rules: Record<string, Record<string, boolean>> = {
    discoveryRules: { ...cud },
    graphs: { ...cud },
    groups: { createMissing: true },
    hosts: { ...none },
    images: { ...none },
    items: { ...cud },
    maps: { ...none },
    screens: { ...none },
    templateLinkage: { createMissing: true },
    templates: { ...cu },
    templateScreens: { ...cud },
    triggers: { ...cud },
    valueMaps: { createMissing: true, updateExisting: false },
  };
  if (versionCmp(version, '3.2') >= 0) rules.httptests = { ...cud };
  rules.applications =
    versionCmp(version, '3.4') >= 0 ? { createMissing: true, deleteMissing: false } : { ...cud };
  return rules;
}

export const miscFunctions = {
  get_zabbix_id_mapper: defineFunction({
    doc: `Make ZABBIX_ID_MAPPER constant available to state modules: the id field of each API object.\n\nCLI Example:\n\n    salt '*' zabbix.get_zabbix_id_mapper`,
    run: () => ZABBIX_ID_MAPPER,
  }),
  substitute_params: defineFunction({
    args: (z) =>
      z.object({ input_object: req(z), extend_params: opt(z), filter_key: z.unknown().default('name') }),
    varkw: true,
    doc: `Go through Zabbix object params specification and if needed get given object ID from Zabbix API and put it back as a value: a dict with query_object and query_name becomes the id of the object named so (filter_key: the field to filter on; extend_params: more params for objects that are not top-level). Other values become strings.${cli('substitute_params \'{"query_object": "object_name", "query_name": "query_name"}\'')}`,
    run: (ctx, a, extra) =>
      substituteParams(ctx, a.input_object, a.extend_params, a.filter_key, extra.kwargs),
  }),
  compare_params: defineFunction({
    args: (z) =>
      z.object({ defined: req(z), existing: req(z), return_old_value: z.unknown().default(false) }),
    doc: `Compares Zabbix object definition against existing Zabbix object: the params that differ (None when none do); return_old_value: {new, old} pairs.\n\nCLI Example:\n\n    salt '*' zabbix.compare_params new_zabbix_object_dict existing_zabbix_onject_dict`,
    run: (_ctx, a) => compareParams(a.defined, a.existing, pyTruthy(a.return_old_value)),
  }),
  get_object_id_by_params: defineFunction({
    args: (z) => z.object({ obj: req(z), params: opt(z) }),
    varkw: true,
    doc: `Get ID of single Zabbix object specified by its name: obj, the object type; params, the get call's params. The id as a string.${cli('get_object_id_by_params object_type params=zabbix_api_query_parameters_dict')}`,
    run: (ctx, a, extra) => objectIdByParams(ctx, String(a.obj), a.params, extra.kwargs),
  }),
  apiinfo_version: defineFunction({
    varkw: true,
    doc: `Retrieve the version of the Zabbix API.${cli('apiinfo_version')}`,
    run: (ctx, _a, extra) => apiVersion(ctx, extra.kwargs),
  }),
  run_query: defineFunction({
    args: (z) => z.object({ method: req(z), params: req(z) }),
    varkw: true,
    doc: `Send Zabbix API call: method, the API method; params, its params. The call's result, False when it is empty.${cli('run_query proxy.create \'{"host": "zabbixproxy.domain.com", "status": "5"}\'')}`,
    run: (ctx, a, extra) => runQuery(ctx, String(a.method), a.params, extra.kwargs),
  }),
  usermacro_get: defineFunction({
    args: (z) =>
      z.object({
        macro: opt(z),
        hostids: opt(z),
        templateids: opt(z),
        hostmacroids: opt(z),
        globalmacroids: opt(z),
        globalmacro: z.unknown().default(false),
      }),
    varkw: true,
    doc: `Retrieve user macros by macro name, hostids, templateids, hostmacroids or globalmacroids; globalmacro: global macros only (usermacro.get). The macros found, False when none.${cli("usermacro_get macro='{$SNMP_COMMUNITY}'")}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const filter: Record<string, unknown> = {};
        let params: Record<string, unknown> = { output: 'extend', filter };
        if (pyTruthy(a.macro)) filter.macro = macroName(a.macro);
        // Salt sends hostids (None) under templateids
        if (pyTruthy(a.hostids)) params.hostids = a.hostids;
        else if (pyTruthy(a.templateids)) params.templateids = a.hostids;
        let globalmacro = a.globalmacro;
        if (pyTruthy(a.hostmacroids)) params.hostmacroids = a.hostmacroids;
        else if (pyTruthy(a.globalmacroids)) {
          globalmacro = true;
          params.globalmacroids = a.globalmacroids;
        }
        if (pyTruthy(globalmacro)) params = paramsExtend(params, { globalmacro: true });
        return orFalse(await s.result('usermacro.get', paramsExtend(params, extra.kwargs)));
      }),
  }),
  usermacro_create: defineFunction({
    args: (z) => z.object({ macro: req(z), value: req(z), hostid: req(z) }),
    varkw: true,
    doc: `Create a host user macro (usermacro.create): macro, value, hostid. The new macro's id.${cli("usermacro_create '{$SNMP_COMMUNITY}' 'public' 1")}`,
    run: (ctx, a, extra) =>
      macroCall(
        ctx,
        extra.kwargs,
        'usermacro.create',
        () => ({
          ...(pyTruthy(a.macro) ? { macro: macroName(a.macro) } : {}),
          value: a.value,
          hostid: a.hostid,
        }),
        'hostmacroids',
      ),
  }),
  usermacro_createglobal: defineFunction({
    args: (z) => z.object({ macro: req(z), value: req(z) }),
    varkw: true,
    doc: `Create a global user macro (usermacro.createglobal): macro, value. The new macro's id.${cli("usermacro_createglobal '{$SNMP_COMMUNITY}' 'public'")}`,
    run: (ctx, a, extra) =>
      macroCall(
        ctx,
        extra.kwargs,
        'usermacro.createglobal',
        () => ({ ...(pyTruthy(a.macro) ? { macro: macroName(a.macro) } : {}), value: a.value }),
        'globalmacroids',
      ),
  }),
  usermacro_delete: defineFunction({
    args: (z) => z.object({ macroids: req(z) }),
    varkw: true,
    doc: `Delete host user macros (usermacro.delete): macroids, one id or a list. The deleted ids.${cli('usermacro_delete 21')}`,
    run: (ctx, a, extra) =>
      resultKey(ctx, extra.kwargs, 'usermacro.delete', asList(a.macroids), 'hostmacroids'),
  }),
  usermacro_deleteglobal: defineFunction({
    args: (z) => z.object({ macroids: req(z) }),
    varkw: true,
    doc: `Delete global user macros (usermacro.deleteglobal): macroids, one id or a list. The deleted ids.${cli('usermacro_deleteglobal 21')}`,
    run: (ctx, a, extra) =>
      resultKey(ctx, extra.kwargs, 'usermacro.deleteglobal', asList(a.macroids), 'globalmacroids'),
  }),
  usermacro_update: defineFunction({
    args: (z) => z.object({ hostmacroid: req(z), value: req(z) }),
    varkw: true,
    doc: `Update a host user macro (usermacro.update): hostmacroid, value. The updated macro's id.${cli("usermacro_update 1 'public'")}`,
    run: (ctx, a, extra) =>
      macroCall(
        ctx,
        extra.kwargs,
        'usermacro.update',
        () => ({ hostmacroid: a.hostmacroid, value: a.value }),
        'hostmacroids',
      ),
  }),
  usermacro_updateglobal: defineFunction({
    args: (z) => z.object({ globalmacroid: req(z), value: req(z) }),
    varkw: true,
    doc: `Update a global user macro (usermacro.updateglobal): globalmacroid, value. The updated macro's id.${cli("usermacro_updateglobal 1 'public'")}`,
    run: (ctx, a, extra) =>
      macroCall(
        ctx,
        extra.kwargs,
        'usermacro.updateglobal',
        () => ({ globalmacroid: a.globalmacroid, value: a.value }),
        'globalmacroids',
      ),
  }),
  mediatype_get: defineFunction({
    args: (z) => z.object({ name: opt(z), mediatypeids: opt(z) }),
    varkw: true,
    doc: `Retrieve media types by name or mediatypeids (mediatype.get). The media types found, False when none.${cli('mediatype_get name=Email')}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const version = await apiVersion(ctx, extra.kwargs);
        const filter: Record<string, unknown> = {};
        const params: Record<string, unknown> = { output: 'extend', filter };
        if (pyTruthy(a.name)) filter[versionCmp(version, '4.4') >= 0 ? 'name' : 'description'] = a.name;
        if (pyTruthy(a.mediatypeids)) params.mediatypeids = a.mediatypeids;
        return orFalse(await s.result('mediatype.get', paramsExtend(params, extra.kwargs)));
      }),
  }),
  mediatype_create: defineFunction({
    args: (z) => z.object({ name: req(z), mediatype: req(z) }),
    varkw: true,
    doc: `Create a media type (mediatype.create): name; mediatype, its type (0 email, 1 script, 2 SMS, 3 Jabber, 100 Ez Texting); its properties as keywords. Salt's answer: the whole API response, as it looks for a key the API does not send.${cli("mediatype_create 'Email' 0 smtp_email='noreply@example.com' smtp_server='mailserver.example.com' smtp_helo='zabbix.example.com'")}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const modern = versionCmp(await apiVersion(ctx, extra.kwargs), '4.4') >= 0;
        const params: Record<string, unknown> = modern ? { name: a.name } : { description: a.name };
        params.type = a.mediatype;
        return field(
          await s.result('mediatype.create', paramsExtend(params, extra.kwargs, !modern)),
          'mediatypeid',
        );
      }),
  }),
  mediatype_delete: defineFunction({
    args: (z) => z.object({ mediatypeids: req(z) }),
    varkw: true,
    doc: `Delete media types (mediatype.delete): mediatypeids, one id or a list. The deleted ids.${cli('mediatype_delete 3')}`,
    run: (ctx, a, extra) =>
      resultKey(ctx, extra.kwargs, 'mediatype.delete', asList(a.mediatypeids), 'mediatypeids'),
  }),
  mediatype_update: defineFunction({
    args: (z) =>
      z.object({
        mediatypeid: req(z),
        name: z.unknown().default(false),
        mediatype: z.unknown().default(false),
      }),
    varkw: true,
    doc: `Update a media type (mediatype.update): mediatypeid; name (sent as description, as Salt does); mediatype, its type. The updated ids.${cli('mediatype_update 4 mediatype=1')}`,
    run: (ctx, a, extra) => {
      const params: Record<string, unknown> = { mediatypeid: a.mediatypeid };
      if (pyTruthy(a.name)) params.description = a.name;
      if (pyTruthy(a.mediatype)) params.type = a.mediatype;
      return resultKey(
        ctx,
        extra.kwargs,
        'mediatype.update',
        paramsExtend(params, extra.kwargs),
        'mediatypeids',
      );
    },
  }),
  template_get: defineFunction({
    args: (z) => z.object({ name: opt(z), host: opt(z), templateids: opt(z) }),
    varkw: true,
    doc: `Retrieve templates by name (visible name), host (technical name) or templateids (template.get). The templates found, False when none.${cli("template_get name='Template OS Linux'")}`,
    run: (ctx, a, extra) =>
      withLogin(ctx, extra.kwargs, async (s) => {
        const filter: Record<string, unknown> = {};
        const params: Record<string, unknown> = { output: 'extend', filter };
        if (pyTruthy(a.name)) filter.name = a.name;
        if (pyTruthy(a.host)) filter.host = a.host;
        if (pyTruthy(a.templateids)) params.templateids = a.templateids;
        return orFalse(await s.result('template.get', paramsExtend(params, extra.kwargs)));
      }),
  }),
  configuration_import: defineFunction({
    args: (z) => z.object({ config_file: req(z), rules: opt(z), file_format: z.unknown().default('xml') }),
    varkw: true,
    doc: `Imports Zabbix configuration specified in file to Zabbix server (configuration.import): config_file, a path or a salt:// URL; rules, merged over Salt's default rules; file_format (xml, json, yaml). {name, result, message}.${cli("configuration_import salt://zabbix/config/zabbix_templates.xml \"{'screens': {'createMissing': True, 'updateExisting': True}}\"")}`,
    run: async (ctx, a, extra) => {
      const rules = importRules(await apiVersion(ctx, extra.kwargs));
      if (pyTruthy(a.rules))
        for (const [k, v] of Object.entries(a.rules as Record<string, Record<string, boolean>>))
          rules[k] = k in rules ? { ...rules[k], ...v } : v;
      const configFile = String(a.config_file);
      let path = configFile;
      let tmp: string | null = null;
      if (configFile.includes('salt://')) {
        tmp = mkdtempSync(join(tmpdir(), 'tsalt-zabbix-'));
        const got = await ctx.call('cp.get_file', [configFile, join(tmp, 'import')]);
        if (!pyTruthy(got) || !existsSync(String(got)) || statSync(String(got)).size === 0) {
          rmSync(tmp, { recursive: true, force: true });
          return { name: configFile, result: false, message: 'Failed to fetch config file.' };
        }
        path = String(got);
      } else if (!existsSync(path) || !statSync(path).isFile())
        return { name: configFile, result: false, message: 'Invalid file path.' };
      const source = readFileSync(path, 'utf8');
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      const params = { format: a.file_format, rules, source };
      try {
        await runQuery(ctx, 'configuration.import', params, extra.kwargs);
        return {
          name: configFile,
          result: true,
          message: 'Zabbix API "configuration.import" method called successfully.',
        };
      } catch (err) {
        if ((err as Error).name !== 'salt.exceptions.SaltException') throw err;
        return { name: configFile, result: false, message: (err as Error).message };
      }
    },
  }),
};
