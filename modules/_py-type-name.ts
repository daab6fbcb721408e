/** Python's `type(value).__name__` (`'int'`, `'str'`, `'NoneType'`), for Python's error texts. */
import { pyTypeName } from '../kernel/python/index.js';

export const pyShortTypeName = (v: unknown): string => pyTypeName(v).slice("<class '".length, -"'>".length);
