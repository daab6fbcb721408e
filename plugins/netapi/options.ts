/**
 * The REST API's master options (salt-api's `rest_cherrypy`/`rest_tornado` blocks and
 * `netapi_enable_clients`), declared by the netapi plugin rather than the kernel's schema. The
 * blocks' own keys are checked by config.ts when the API starts.
 */
import { z } from 'zod';
import { collectionOption, defineOptions, type OptionsInput, stringListOption } from '../../kernel/index.js';

const block = (description: string) =>
  collectionOption(
    z.record(z.string(), z.unknown(), { error: 'expected a mapping of REST API options' }).nullable(),
    null,
    description,
    'mapping | null',
  );

export const netapiMasterOptions = defineOptions('master', {
  netapi_enable_clients: stringListOption(
    'Clients the REST API may call (`local`, `runner`, ...).',
    'list of names',
  ),
  rest_cherrypy: block(
    'The REST API (netapi, salt-api compatible): `port`, `host`, `disable_ssl`, `ssl_crt`, `ssl_key`, ...; set to start it with the master.',
  ),
  rest_tornado: block('Same as `rest_cherrypy` (tsalt serves one REST API for both names).'),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof netapiMasterOptions> {}
}
