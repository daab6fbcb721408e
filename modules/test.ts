/**
 * Salt's `test` execution module (`salt/modules/test.py`): connectivity checks, argument
 * echoes, sleeps and retcode/exception probes used to exercise the platform.
 */
import { createHash, getHashes, randomBytes, randomInt } from 'node:crypto';
import type { z as Zod } from 'zod';
import { defineFunction, defineModule, SALT_ERR_INVOCATION } from '../kernel/index.js';
import {
  float64,
  PUB_PREFIX,
  PyTuple,
  pyRepr,
  pyTypeName,
  RetcodeResult,
  SALT_COMPAT_VERSION,
  type SaltFloat,
} from '../kernel/util.js';
import { asPyTuple } from '../outputters/py-tuples.js';
import { abortableSleep } from './_abort.js';
import { pyFlag, pyInt } from './_coerce.js';
import { cleanKwargs } from './_invalid-kwargs.js';
import { pythonError } from './_py-exception.js';
import { testProbeFunctions } from './_test-probes.js';
import { versionsInformation, versionsReport } from './_versions.js';

/** Salt's docstring tail: a `CLI Example:` with its bash code block. */
function cliExample(command: string): string {
  return `\n\nCLI Example:\n\n.. code-block:: bash\n\n    salt '*' ${command}`;
}

function elapsedSince(start: bigint): SaltFloat {
  return float64(Number(process.hrtime.bigint() - start) / 1e9);
}

const U64_MAX = 2n ** 64n - 1n;

/** A bigint as the smallest value that still packs: a number when safe, else bigint (else decimal text). */
function bigValue(n: bigint): number | bigint | string {
  if (n <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(n);
  return n <= U64_MAX ? n : n.toString();
}

/** A uniformly random integer in [0, max]. */
function randomUpTo(max: bigint): bigint {
  if (max < 2n ** 48n - 1n) return BigInt(randomInt(0, Number(max) + 1));
  const bytes = Math.ceil(max.toString(16).length / 2) + 1;
  const span = max + 1n;
  for (;;) {
    const n = BigInt(`0x${randomBytes(bytes).toString('hex')}`);
    const limit = (2n ** BigInt(bytes * 8) / span) * span;
    if (n < limit) return n % span;
  }
}

/** Python hashlib names to Node's. */
function nodeHashName(hashType: string): string {
  const name = hashType.toLowerCase();
  const mapped = /^sha3_(\d+)$/.test(name)
    ? name.replace('_', '-')
    : name === 'blake2b'
      ? 'blake2b512'
      : name === 'blake2s'
        ? 'blake2s256'
        : name;
  if (!getHashes().includes(mapped)) {
    throw new SALT_ERR_INVOCATION(`module 'hashlib' has no attribute '${hashType}'`);
  }
  return mapped;
}

const randomHashArgs = (z: typeof Zod) =>
  z.object({
    size: z.union([z.number(), z.bigint(), z.string().regex(/^\d+$/)]).default(9999999999),
    hash_type: z.string().nullish(),
  });

const randomHash = defineFunction({
  args: randomHashArgs,
  doc: 'Generate a random number between 0 and size and return a hash of it.\n\nhash_type defaults to the minion hash_type option (sha256).',
  run: (ctx, { size, hash_type }) => {
    const hashType = hash_type || (typeof ctx.opts.hash_type === 'string' ? ctx.opts.hash_type : 'sha256');
    const algo = nodeHashName(hashType);
    const n = randomUpTo(BigInt(size));
    return createHash(algo).update(n.toString()).digest('hex');
  },
});

const ping = defineFunction({
  inline: true,
  doc: `Used to make sure the minion is up and responding. Not an ICMP ping.\n\nReturns \`\`True\`\`.${cliExample('test.ping')}`,
  run: (ctx) => {
    ctx.log.debug({ minion: ctx.id }, 'test.ping received');
    return true;
  },
});

const versionsReportFn = defineFunction({
  doc: 'Return versions of the components used by tsalt, one per line.',
  run: () => versionsReport().join('\n'),
});

export default defineModule({
  name: 'test',
  doc: 'Module for running arbitrary tests.',
  functions: {
    ping,
    echo: defineFunction({
      inline: true,
      args: (z) => z.object({ text: z.unknown() }),
      doc: `Return a string - used for testing the connection${cliExample("test.echo 'foo bar baz quo qux'")}`,
      run: (_ctx, { text }) => text,
    }),
    arg: defineFunction({
      inline: true,
      varargs: true,
      varkw: true,
      doc: 'Print out the data passed into the function *args and **kwargs (publish data included as __pub_* keys).\n\nReturns {"args": [...], "kwargs": {...}}.',
      run: (_ctx, _a, extra) => ({ args: asPyTuple([...extra.args]), kwargs: extra.kwargs }),
    }),
    arg_clean: defineFunction({
      inline: true,
      varargs: true,
      varkw: true,
      doc: 'Like test.arg but without the __pub_* items.',
      run: (_ctx, _a, extra) => ({ args: extra.args, kwargs: cleanKwargs(extra.kwargs) }),
    }),
    arg_type: defineFunction({
      inline: true,
      varargs: true,
      varkw: true,
      doc: 'Print out the (Python) types of the args and kwargs passed in.',
      run: (_ctx, _a, extra) => ({
        args: extra.args.map(pyTypeName),
        kwargs: Object.fromEntries(Object.entries(extra.kwargs).map(([k, v]) => [k, pyTypeName(v)])),
      }),
    }),
    arg_repr: defineFunction({
      inline: true,
      varargs: true,
      varkw: true,
      doc: 'Print out the Python repr() of the args and kwargs passed in.',
      run: (_ctx, _a, extra) => ({ args: pyRepr(new PyTuple(extra.args)), kwargs: pyRepr(extra.kwargs) }),
    }),
    kwarg: defineFunction({
      inline: true,
      varkw: true,
      doc: 'Print out the data passed into the function **kwargs, publish data included.',
      run: (_ctx, _a, extra) => extra.kwargs,
    }),
    sleep: defineFunction({
      args: (z) => z.object({ length: pyInt(z) }),
      doc: `Instruct the minion to initiate a process that will sleep for a given\nperiod of time.${cliExample('test.sleep 20')}`,
      run: async (ctx, { length }) => {
        if (length < 0) throw new SALT_ERR_INVOCATION('sleep length must be non-negative');
        await abortableSleep(length * 1000, ctx.signal, 'test.sleep');
        return true;
      },
    }),
    rand_sleep: defineFunction({
      args: (z) => z.object({ max: pyInt(z).default(60) }),
      doc: `Sleep for a random number of seconds, used to test long-running commands\nand minions returning at differing intervals${cliExample('test.rand_sleep 60')}`,
      run: async (ctx, { max }) => {
        if (max < 0) throw new SALT_ERR_INVOCATION('empty range for randrange()');
        await abortableSleep(randomInt(0, max + 1) * 1000, ctx.signal, 'test.rand_sleep');
        return true;
      },
    }),
    version: defineFunction({
      inline: true,
      doc: `Return the version of salt on the minion${cliExample('test.version')}`,
      run: () => SALT_COMPAT_VERSION,
    }),
    versions_information: defineFunction({
      doc: 'Report the versions of dependent and system software.',
      run: () => versionsInformation(),
    }),
    versions_report: versionsReportFn,
    versions: versionsReportFn,
    retcode: defineFunction({
      args: (z) => z.object({ code: z.unknown().optional().default(42) }),
      doc: `Test that the returncode system is functioning correctly${cliExample('test.retcode 42')}`,
      run: (_ctx, { code }) => new RetcodeResult(true, typeof code === 'number' ? code : Number(code) || 0),
    }),
    exception: defineFunction({
      args: (z) => z.object({ message: z.unknown().optional().default('Test Exception') }),
      doc: `Raise an exception\n\nOptionally provide an error message or output the full stack.${cliExample("test.exception 'Oh noes!'")}`,
      run: (_ctx, { message }) => {
        // an unexpected exception, as Salt's `raise Exception(message)`
        throw pythonError('Exception', String(message));
      },
    }),
    fib: defineFunction({
      args: (z) => z.object({ num: pyInt(z) }),
      doc: `Return the \`\`num\`\`-th Fibonacci number, and the time it took to compute in\nseconds. Used for performance tests.\n\nThis function is designed to have terrible performance.${cliExample('test.fib 3')}`,
      run: (_ctx, { num }) => {
        if (num < 0) throw new SALT_ERR_INVOCATION('Negative number is not allowed!');
        const start = process.hrtime.bigint();
        if (num < 2) return [num, elapsedSince(start)];
        let prev = 0n;
        let curr = 1n;
        for (let i = 1; i < num; i += 1) [prev, curr] = [curr, prev + curr];
        return [bigValue(curr), elapsedSince(start)];
      },
    }),
    collatz: defineFunction({
      args: (z) => z.object({ start: pyInt(z) }),
      doc: `Execute the collatz conjecture from the passed starting number,\nreturns the sequence and the time it took to compute. Used for\nperformance tests.${cliExample('test.collatz 3')}`,
      run: (_ctx, { start }) => {
        if (start < 1) throw new SALT_ERR_INVOCATION('start must be a positive integer');
        const begin = process.hrtime.bigint();
        // Python divides with `/`: from the first halving on, every step is a float.
        const steps: (number | SaltFloat)[] = [];
        let n = start;
        let halved = false;
        while (n !== 1) {
          steps.push(halved ? float64(n) : n);
          halved ||= n % 2 === 0;
          n = n % 2 === 0 ? n / 2 : n * 3 + 1;
        }
        return [steps, elapsedSince(begin)];
      },
    }),
    outputter: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      doc: `Test the outputter, pass in data to return${cliExample('test.outputter foobar')}`,
      run: (_ctx, { data }) => data,
    }),
    true: defineFunction({ pyName: 'true_', inline: true, doc: 'Always return True.', run: () => true }),
    false: defineFunction({ pyName: 'false_', inline: true, doc: 'Always return False.', run: () => false }),
    random_hash: randomHash,
    rand_str: randomHash,
    get_opts: defineFunction({
      doc: 'Return the configuration options of this minion.',
      run: (ctx) => ctx.opts,
    }),
    conf_test: defineFunction({
      doc: 'Return the value for test.foo in the minion configuration, or the default.',
      run: (ctx) => ctx.call('config.option', ['test.foo']),
    }),
    cross_test: defineFunction({
      args: (z) => z.object({ func: z.string(), args: z.array(z.unknown()).nullish() }),
      doc: `Execute a minion function via the \`\`__salt__\`\` object in the test\nmodule, used to verify that the Minion functions can be called\nvia the \`\`__salt__\`\` module.${cliExample('test.cross_test file.gid_to_group 0')}`,
      run: (ctx, { func, args }) => ctx.call(func, args ?? []),
    }),
    provider: defineFunction({
      args: (z) => z.object({ module: z.string() }),
      doc: "Return the name of the file (without extension) the named module was loaded from, or '' when it is not loaded.\n\nCLI Example: salt '*' test.provider pkg",
      run: async (ctx, { module }) => (await ctx.functions.provider(module)) ?? '',
    }),
    providers: defineFunction({
      doc: "Return a dict of the provider names (file stems) and the modules they provide.\n\nCLI Example: salt '*' test.providers",
      run: async (ctx) => {
        const ret: Record<string, string> = {};
        for (const name of await ctx.functions.modules()) {
          ret[(await ctx.functions.provider(name)) ?? ''] = name;
        }
        return ret;
      },
    }),
    stack: defineFunction({
      doc: "Return the current stack trace of the running function (a JavaScript stack; Salt returns a Python one).\n\nCLI Example: salt '*' test.stack",
      run: () => {
        const lines = (new Error().stack ?? '').split('\n').slice(1);
        return `${lines.map((l) => l.trim()).join('\n')}\n`;
      },
    }),
    try: defineFunction({
      pyName: 'try_',
      args: (z) => z.object({ module: z.string(), return_try_exception: pyFlag(z, false) }),
      varkw: true,
      doc: 'Run a module function with the given keywords; on an exception return None (or its message).',
      run: async (ctx, { module, return_try_exception }, extra) => {
        const kwargs = Object.fromEntries(
          Object.entries(extra.kwargs).filter(([k]) => !k.startsWith(PUB_PREFIX)),
        );
        try {
          return await ctx.call(module, [], kwargs);
        } catch (err) {
          return return_try_exception ? (err instanceof Error ? err.message : String(err)) : null;
        }
      },
    }),
    ...testProbeFunctions,
  },
});
