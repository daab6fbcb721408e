/**
 * The `postgres` module's privilege functions as Salt names them: `privileges_list`,
 * `has_privileges`, `privileges_grant`, `privileges_revoke` (modules/_pg-privileges.ts does the work).
 */
import type { z as Zod } from 'zod';
import { defineFunction } from '../kernel/index.js';
import { cli, conn, name, opt, truthy, u } from './_pg-args.js';
import {
  hasPrivileges,
  type PrivilegeArgs,
  privilegesGrant,
  privilegesList,
  privilegesRevoke,
} from './_pg-privileges.js';

const TYPES = 'table, sequence, schema, tablespace, language, database, group or function';

const target = (z: typeof Zod) => ({
  name: name(z),
  object_name: name(z),
  object_type: z.string(),
  privileges: u(z),
});
const tail = (z: typeof Zod) => ({ prepend: z.string().default('public'), ...conn(z), runas: u(z) });

interface Target {
  name: string;
  object_name: string;
  object_type: string;
  privileges: unknown;
  grant_option?: unknown;
  prepend: string;
}
const privArgs = (a: Target): PrivilegeArgs => ({
  role: a.name,
  objectName: a.object_name,
  objectType: a.object_type,
  privileges: opt(a.privileges),
  grantOption: truthy(a.grant_option ?? false),
  schema: a.prepend,
});

export const privilegeFunctions = {
  privileges_list: defineFunction({
    args: (z) => z.object({ name: name(z), object_type: z.string(), ...tail(z) }),
    doc: `Return the privileges on an object (a ${TYPES}) as {role: {PRIVILEGE: grantable}}, or a group's members as {role: admin option}; prepend: the schema of a table, sequence or function.${cli('privileges_list table_name table maintenance_db=db_name')}`,
    run: (ctx, a) => privilegesList(ctx, a.name, a.object_type, a.prepend, a),
  }),
  has_privileges: defineFunction({
    args: (z) => z.object({ ...target(z), grant_option: u(z), ...tail(z) }),
    doc: `Check if a role has the privileges (comma separated: SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER, CREATE, CONNECT, TEMPORARY, EXECUTE, USAGE or ALL) on an object; its owner has them all.${cli('has_privileges user_name table_name table SELECT,INSERT maintenance_db=db_name')}`,
    run: (ctx, a) => hasPrivileges(ctx, privArgs(a), a),
  }),
  privileges_grant: defineFunction({
    args: (z) => z.object({ ...target(z), grant_option: u(z), ...tail(z) }),
    doc: `Grant privileges on an object (object_name ALL: every table or sequence of the schema), or a group's membership; false when the role has them already.${cli('privileges_grant user_name table_name table SELECT,UPDATE maintenance_db=db_name')}`,
    run: (ctx, a) => privilegesGrant(ctx, privArgs(a), a),
  }),
  privileges_revoke: defineFunction({
    args: (z) => z.object({ ...target(z), ...tail(z) }),
    doc: `Revoke privileges on an object, or a group's membership; false when the role does not have them.${cli('privileges_revoke user_name table_name table SELECT,UPDATE maintenance_db=db_name')}`,
    run: (ctx, a) => privilegesRevoke(ctx, privArgs(a), a),
  }),
};
