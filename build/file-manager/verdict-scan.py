# "Scan with Verdict" in GNOME Files (Nautilus) for every user, installed by Verdict's .deb
# (electron/file-manager-menus/system-menus.ts). Nautilus loads it when python3-nautilus is
# installed. The selected paths go to Verdict as separate arguments, with no shell between.
import os

from gi.repository import GLib, GObject, Nautilus

VERDICT = '/opt/Verdict/verdict'
LABELS = {'en': 'Scan with Verdict', 'de': 'Mit Verdict prüfen'}
TIPS = {'en': 'Check the selected files and folders for malware', 'de': 'Die gewählten Dateien und Ordner auf Schadsoftware prüfen'}


def language():
    for name in ('LANGUAGE', 'LC_ALL', 'LC_MESSAGES', 'LANG'):
        value = os.environ.get(name)
        if value:
            return 'de' if value.startswith('de') else 'en'
    return 'en'


class VerdictScan(GObject.GObject, Nautilus.MenuProvider):
    # Nautilus 43+ calls get_file_items(files); earlier versions get_file_items(window, files).
    def get_file_items(self, *args):
        paths = [item.get_location().get_path() for item in args[-1]]
        paths = [path for path in paths if path]
        if not paths:
            return []
        lang = language()
        item = Nautilus.MenuItem(name='VerdictScan::scan', label=LABELS[lang], tip=TIPS[lang], icon='verdict')
        item.connect('activate', self.scan, paths)
        return [item]

    def scan(self, _item, paths):
        GLib.spawn_async([VERDICT, *paths], flags=GLib.SpawnFlags.DEFAULT)
