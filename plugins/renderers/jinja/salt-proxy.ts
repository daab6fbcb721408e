/**
 * The `salt` template global (Salt's `__salt__` LazyLoader as Jinja sees it): `salt['mod.fn']`
 * and `salt.mod.fn` give a callable that runs the function through the render context's
 * {@link SaltFunctions}; a failing call names the function and its error.
 */
import type { SaltFunctions } from '../types.js';
import { JinjaFunction, TemplateError, Undefined } from './values.js';

export class SaltProxy {
  readonly typeName = 'LazyLoader';
  constructor(
    readonly fns: SaltFunctions,
    readonly prefix = '',
  ) {}

  has(name: string): boolean {
    return this.fns.has(this.prefix + name);
  }

  /**
   * The function `prefix + name`, the module namespace `name.` , or an Undefined naming it. A bare
   * name on the top proxy is always a namespace (`salt.user` then `.info`): every function is
   * `mod.fn`, and a context whose `has` answers true for any name must not turn `user` into one.
   */
  get(name: string): unknown {
    const full = this.prefix + name;
    if (!this.prefix && !name.includes('.')) return new SaltProxy(this.fns, `${name}.`);
    if (this.fns.has(full)) return saltFunction(this.fns, full);
    return new Undefined(`salt['${full}'] is not available (no such execution module function)`);
  }
}

function saltFunction(fns: SaltFunctions, fun: string): JinjaFunction {
  return new JinjaFunction(`salt['${fun}']`, (args, kwargs) => {
    const fail = (err: unknown): never => {
      throw new TemplateError(`salt['${fun}'] failed: ${(err as Error)?.message ?? String(err)}`);
    };
    try {
      const r = fns.call(fun, args, kwargs);
      return r instanceof Promise ? r.catch(fail) : r;
    } catch (err) {
      return fail(err);
    }
  });
}
