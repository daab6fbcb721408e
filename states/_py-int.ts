/** Python's `int()` as Salt's zabbix states apply it to ids and flags: its home is modules/_py-int.ts. */
export { pyInt } from '../modules/_py-int.js';
