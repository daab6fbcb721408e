/**
 * Salt's `gnome` execution module (`salt/modules/gnomedesktop.py`): a user's GNOME desktop
 * settings (GSettings keys) read and written with the `gsettings` program run as that user in a
 * private session bus (`_gsettings.ts`). Salt's binding is python's Gio; tsalt's is the program
 * from libglib2.0-bin, which Salt itself runs for every get and set.
 */
import { defineFunction, defineModule, type ExecContext } from '../kernel/index.js';
import { type GsettingsRun, gsettingsGet, gsettingsSet } from './_gsettings.js';
import { which } from './_which.js';

/** A getter of one fixed key, for `user=` given as a keyword (Salt's `**kwargs`). */
function getter(schema: string, key: string, doc: string) {
  return defineFunction({
    varkw: true,
    doc,
    run: (ctx: ExecContext, _a, { kwargs }) => gsettingsGet(ctx, kwargs.user, schema, key),
  });
}

/** A setter of one fixed boolean key: Salt sets it only for Python's True or False, else answers False. */
function boolSetter(schema: string, key: string, doc: string) {
  return defineFunction({
    args: (z) => z.object({ kvalue: z.unknown() }),
    varkw: true,
    doc,
    run: async (ctx, a, { kwargs }): Promise<GsettingsRun | false> =>
      a.kvalue === true || a.kvalue === false ? gsettingsSet(ctx, kwargs.user, schema, key, a.kvalue) : false,
  });
}

export default defineModule({
  name: 'gnome',
  doc: 'GNOME desktop settings of a user, through gsettings.',
  virtual: () =>
    which('gsettings')
      ? true
      : {
          ok: false,
          reason:
            'The gnome_desktop execution module cannot be loaded: The Gio and GLib modules are not available',
        },
  functions: {
    ping: defineFunction({
      varkw: true,
      doc: "Check that the GNOME module is loaded.\n\nCLI Example:\n\n    salt '*' gnome.ping user=<username>",
      run: () => true,
    }),
    getIdleDelay: getter(
      'org.gnome.desktop.session',
      'idle-delay',
      "The idle delay, in seconds, of the user's session.\n\nCLI Example:\n\n    salt '*' gnome.getIdleDelay user=<username>",
    ),
    setIdleDelay: defineFunction({
      args: (z) => z.object({ delaySeconds: z.unknown() }),
      varkw: true,
      doc: "Set the idle delay, in seconds, of the user's session.\n\nCLI Example:\n\n    salt '*' gnome.setIdleDelay <seconds> user=<username>",
      run: (ctx, a, { kwargs }) =>
        gsettingsSet(ctx, kwargs.user, 'org.gnome.desktop.session', 'idle-delay', a.delaySeconds),
    }),
    getClockFormat: getter(
      'org.gnome.desktop.interface',
      'clock-format',
      "The clock's format: 12h or 24h.\n\nCLI Example:\n\n    salt '*' gnome.getClockFormat user=<username>",
    ),
    setClockFormat: defineFunction({
      args: (z) => z.object({ clockFormat: z.unknown() }),
      varkw: true,
      doc: "Set the clock's format to 12h or 24h; any other value is refused (False).\n\nCLI Example:\n\n    salt '*' gnome.setClockFormat <12h|24h> user=<username>",
      run: async (ctx, a, { kwargs }): Promise<GsettingsRun | false> =>
        a.clockFormat === '12h' || a.clockFormat === '24h'
          ? gsettingsSet(ctx, kwargs.user, 'org.gnome.desktop.interface', 'clock-format', a.clockFormat)
          : false,
    }),
    getClockShowDate: getter(
      'org.gnome.desktop.interface',
      'clock-show-date',
      "Whether the clock shows the date.\n\nCLI Example:\n\n    salt '*' gnome.getClockShowDate user=<username>",
    ),
    setClockShowDate: boolSetter(
      'org.gnome.desktop.interface',
      'clock-show-date',
      "Set whether the clock shows the date; a value other than True or False is refused (False).\n\nCLI Example:\n\n    salt '*' gnome.setClockShowDate <True|False> user=<username>",
    ),
    getIdleActivation: getter(
      'org.gnome.desktop.screensaver',
      'idle-activation-enabled',
      "Whether the screensaver starts when the session is idle.\n\nCLI Example:\n\n    salt '*' gnome.getIdleActivation user=<username>",
    ),
    setIdleActivation: boolSetter(
      'org.gnome.desktop.screensaver',
      'idle-activation-enabled',
      "Set whether the screensaver starts when the session is idle; a value other than True or False is refused (False).\n\nCLI Example:\n\n    salt '*' gnome.setIdleActivation <True|False> user=<username>",
    ),
    get: defineFunction({
      args: (z) =>
        z.object({
          schema: z.unknown().default(null),
          key: z.unknown().default(null),
          user: z.unknown().default(null),
        }),
      varkw: true,
      doc: "The value of a key of a GNOME schema for a user.\n\nCLI Example:\n\n    salt '*' gnome.get user=<username> schema=org.gnome.desktop.screensaver key=idle-activation-enabled",
      run: (ctx, a) => gsettingsGet(ctx, a.user, a.schema, a.key),
    }),
    set: defineFunction({
      pyName: 'set_',
      args: (z) =>
        z.object({
          schema: z.unknown().default(null),
          key: z.unknown().default(null),
          user: z.unknown().default(null),
          value: z.unknown().default(null),
        }),
      varkw: true,
      doc: "Set a key of a GNOME schema for a user.\n\nCLI Example:\n\n    salt '*' gnome.set user=<username> schema=org.gnome.desktop.screensaver key=idle-activation-enabled value=False",
      run: (ctx, a) => gsettingsSet(ctx, a.user, a.schema, a.key, a.value),
    }),
  },
});
