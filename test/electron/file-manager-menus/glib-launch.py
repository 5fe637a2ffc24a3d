# The file managers' own argument handling, done by the real GLib (python3-gi): what Nemo and
# Thunar run for a selection, and a .desktop entry launched by GIO. Reads a JSON request on
# stdin, prints a JSON answer. Used by file-manager-menus tests only.
import json
import sys
import time
import xml.etree.ElementTree as ET

from gi.repository import Gio, GLib


def nemo(request):
    # Nemo (nemo-action.c): the Exec string from the key file, each %U replaced by the URIs,
    # each wrapped in the Quote type's quotes, then g_spawn_command_line_async (g_shell_parse_argv).
    keys = GLib.KeyFile()
    # KEEP_TRANSLATIONS: Nemo (G_KEY_FILE_NONE) keeps only the running locale's Name[..].
    keys.load_from_file(request['file'], GLib.KeyFileFlags.KEEP_TRANSLATIONS)
    group = 'Nemo Action'
    exec_line = keys.get_string(group, 'Exec')
    quote = {'double': '"', 'single': "'", 'backtick': '`'}.get(keys.get_string(group, 'Quote'), '')
    uris = ' '.join(quote + Gio.File.new_for_path(path).get_uri() + quote for path in request['paths'])
    position = exec_line.index('%')
    assert exec_line[position:position + 2] == '%U', exec_line
    expanded = exec_line[:position] + uris + exec_line[position + 2:]
    ok, argv = GLib.shell_parse_argv(expanded)
    fields = {key: keys.get_string(group, key) for key in keys.get_keys(group)[0]}
    return {'argv': argv, 'fields': fields, 'nameDe': keys.get_locale_string(group, 'Name', 'de')}


def thunar_expand(command, paths):
    # Thunar (thunar-uca-model.c): %F becomes every path through g_shell_quote, %% a %.
    out, index = '', 0
    while index < len(command):
        char = command[index]
        if char == '%' and index + 1 < len(command):
            code = command[index + 1]
            index += 2
            if code == 'F':
                out += ' '.join(GLib.shell_quote(path) for path in paths)
            elif code == '%':
                out += '%'
            continue
        out += char
        index += 1
    return out


def thunar(request):
    root = ET.parse(request['file']).getroot()
    actions = [{child.tag: (child.text or '') for child in action} for action in root.findall('action')]
    answer = {'root': root.tag, 'actions': actions}
    ours = [action for action in actions if action.get('unique-id') == request.get('uniqueId')]
    if ours:
        ok, argv = GLib.shell_parse_argv(thunar_expand(ours[0]['command'], request['paths']))
        answer['argv'] = argv
    return answer


def desktop(request):
    # GIO launches the entry's main Exec with the files, as GNOME's "Open with" does.
    app = Gio.DesktopAppInfo.new_from_filename(request['file'])
    if app is None:
        return {'error': 'GIO could not load the entry'}
    app.launch([Gio.File.new_for_path(path) for path in request['paths']], None)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            with open(request['out'], 'rb') as handle:
                if handle.read():
                    break
        except FileNotFoundError:
            pass
        time.sleep(0.05)
    return {'launched': True, 'actions': app.list_actions()}


request = json.load(sys.stdin)
print(json.dumps({'nemo': nemo, 'thunar': thunar, 'desktop': desktop}[request['mode']](request)))
