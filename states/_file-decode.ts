/**
 * Salt's `file.decode` state (`salt/states/file.py` `decode`): a file whose content is the
 * base64-decoded `encoded_data` (or a pillar value), compared by the digest of `checksum`.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/errors.js';
import { defineState, type StateReturn } from '../plugins/states/index.js';

export const decode = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      encoded_data: z.string().nullish(),
      contents_pillar: z.string().nullish(),
      encoding_type: z.string().default('base64'),
      checksum: z.string().default('md5'),
    }),
  doc: 'Decode an encoded file and write it to disk.\n\nname: the file to write.\nencoded_data: the base64 data, or contents_pillar: the pillar key that holds it.\nencoding_type: base64 (the only one).\nchecksum: the digest comparing the file with the data (md5).',
  async run(ctx, a): Promise<StateReturn> {
    const { name, checksum } = a;
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    if (!(a.encoded_data || a.contents_pillar))
      throw new SALT_ERR_EXEC_COMMAND("Specify either the 'encoded_data' or 'contents_pillar' argument.");
    if (a.encoded_data && a.contents_pillar)
      throw new SALT_ERR_EXEC_COMMAND("Specify only one 'encoded_data' or 'contents_pillar' argument.");
    let content: unknown = a.encoded_data;
    if (!content) {
      content = await ctx.call('pillar.get', [a.contents_pillar, false]);
      if (content === false) throw new SALT_ERR_EXEC_COMMAND('Pillar data not found.');
    }
    if (await ctx.call('file.file_exists', [name])) {
      const decoded = await ctx.call('hashutil.base64_decodestring', [content]);
      const insum = await ctx.call('hashutil.digest', [decoded, checksum]);
      const outsum = await ctx.call('hashutil.digest_file', [name, checksum]);
      if (insum !== outsum) ret.changes = { old: outsum, new: insum };
      else return { ...ret, comment: 'File is in the correct state.', result: true };
    }
    if (ctx.test) return { ...ret, comment: 'File is set to be updated.', result: null };
    ret.result = (await ctx.call('hashutil.base64_decodefile', [content, name])) as boolean;
    ret.comment = 'File was updated.';
    if (Object.keys(ret.changes).length === 0)
      ret.changes = { old: null, new: await ctx.call('hashutil.digest_file', [name, checksum]) };
    return ret;
  },
});
