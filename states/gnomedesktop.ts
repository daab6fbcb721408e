/**
 * Salt's `gnomedesktop` state module (`salt/states/gnomedesktop.py`): a user's GNOME settings
 * of one schema each (`wm_preferences`, `desktop_lockdown`, `desktop_interface`), each given
 * argument (underscores become dashes) set with `gnome.set` unless `gnome.get` already shows
 * its value. Like Salt's, the states set keys in test mode too.
 */
import { pyStr } from '../kernel/util.js';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';

interface SetAnswer {
  retcode: number;
  stdout: string;
}

/** Salt's `_do`: set each preference that differs, one message each, joined in the comment. */
async function apply(
  ctx: StateContext,
  name: string,
  base: { user: unknown; schema: string },
  preferences: ReadonlyArray<[string, unknown]>,
): Promise<StateReturn> {
  const ret: StateReturn = { name, result: true, changes: {}, comment: '' };
  const messages: string[] = [];
  for (const [key, raw] of preferences) {
    // gsettings spells booleans in lower case
    const value = typeof raw === 'boolean' ? String(raw) : raw;
    const kwargs = { ...base, key, value };
    const current = await ctx.call('gnome.get', [], kwargs);
    if (pyStr(current) === pyStr(value)) messages.push(`${key} is already set to ${pyStr(value)}`);
    else {
      const r = (await ctx.call('gnome.set', [], kwargs)) as SetAnswer;
      if (r.retcode === 0) {
        messages.push(`Setting ${key} to ${pyStr(value)}`);
        ret.changes[key] = `${key}:${pyStr(value)}`;
        ret.result = true;
      } else {
        messages.push(pyStr(r.stdout));
        ret.result = false;
      }
    }
    ret.comment = messages.join(', ');
  }
  return ret;
}

/** One state over `schema` whose optional arguments are `prefs`, in Salt's order. */
function schemaState(schema: string, prefs: readonly string[], doc: string) {
  return defineState({
    args: (z) =>
      z.object({
        name: z.string(),
        user: z.unknown().default(null),
        ...Object.fromEntries(prefs.map((p) => [p, z.unknown().default(null)])),
      }),
    varkw: true,
    doc,
    run(ctx, a) {
      const given = a as Record<string, unknown>;
      const chosen: Array<[string, unknown]> = [];
      for (const p of prefs) {
        const v = given[p];
        if (v !== null && v !== undefined) chosen.push([p.replaceAll('_', '-'), v]);
      }
      return apply(ctx, a.name, { user: a.user, schema }, chosen);
    },
  });
}

const WM_PREFERENCES = [
  'action_double_click_titlebar',
  'action_middle_click_titlebar',
  'action_right_click_titlebar',
  'application_based',
  'audible_bell',
  'auto_raise',
  'auto_raise_delay',
  'button_layout',
  'disable_workarounds',
  'focus_mode',
  'focus_new_windows',
  'mouse_button_modifier',
  'num_workspaces',
  'raise_on_click',
  'resize_with_right_button',
  'theme',
  'titlebar_font',
  'titlebar_uses_system_font',
  'visual_bell',
  'visual_bell_type',
  'workspace_names',
] as const;

const DESKTOP_LOCKDOWN = [
  'disable_application_handlers',
  'disable_command_line',
  'disable_lock_screen',
  'disable_log_out',
  'disable_print_setup',
  'disable_printing',
  'disable_save_to_disk',
  'disable_user_switching',
  'user_administration_disabled',
] as const;

const DESKTOP_INTERFACE = [
  'automatic_mnemonics',
  'buttons_have_icons',
  'can_change_accels',
  'clock_format',
  'clock_show_date',
  'clock_show_seconds',
  'cursor_blink',
  'cursor_blink_time',
  'cursor_blink_timeout',
  'cursor_size',
  'cursor_theme',
  'document_font_name',
  'enable_animations',
  'font_name',
  'gtk_color_palette',
  'gtk_color_scheme',
  'gtk_im_module',
  'gtk_im_preedit_style',
  'gtk_im_status_style',
  'gtk_key_theme',
  'gtk_theme',
  'gtk_timeout_initial',
  'gtk_timeout_repeat',
  'icon_theme',
  'menubar_accel',
  'menubar_detachable',
  'menus_have_icons',
  'menus_have_tearoff',
  'monospace_font_name',
  'show_input_method_menu',
  'show_unicode_menu',
  'text_scaling_factor',
  'toolbar_detachable',
  'toolbar_icons_size',
  'toolbar_style',
  'toolkit_accessibility',
] as const;

export default defineStateModule({
  name: 'gnomedesktop',
  doc: "A user's GNOME desktop settings: window manager preferences, lockdown and interface keys.",
  functions: {
    wm_preferences: schemaState(
      'org.gnome.desktop.wm.preferences',
      WM_PREFERENCES,
      'Set keys of the org.gnome.desktop.wm.preferences schema for `user`.',
    ),
    desktop_lockdown: schemaState(
      'org.gnome.desktop.lockdown',
      DESKTOP_LOCKDOWN,
      'Set keys of the org.gnome.desktop.lockdown schema for `user`.',
    ),
    desktop_interface: schemaState(
      'org.gnome.desktop.interface',
      DESKTOP_INTERFACE,
      'Set keys of the org.gnome.desktop.interface schema for `user`.',
    ),
  },
});
