# Loads the .deb's nautilus-python extension (build/file-manager/verdict-scan.py) with a
# stand-in for Nautilus's introspected module (python3-nautilus is not installed here),
# asks it for the menu of a selection in both of Nautilus's call styles, activates the item
# and waits for the stand-in Verdict it was pointed at. Prints what it saw as JSON.
import importlib.util
import json
import sys
import time
import types

import gi.repository
from gi.repository import Gio

request = json.load(sys.stdin)

nautilus = types.ModuleType('gi.repository.Nautilus')


class MenuProvider:
    pass


class MenuItem:
    def __init__(self, **properties):
        self.properties = properties
        self.handlers = []

    def connect(self, signal, handler, *data):
        self.handlers.append((signal, handler, data))


nautilus.MenuProvider = MenuProvider
nautilus.MenuItem = MenuItem
sys.modules['gi.repository.Nautilus'] = nautilus
gi.repository.Nautilus = nautilus

spec = importlib.util.spec_from_file_location('verdict_scan', request['extension'])
extension = importlib.util.module_from_spec(spec)
spec.loader.exec_module(extension)
answer = {'executable': extension.VERDICT}
extension.VERDICT = request['standIn']


class File:
    def __init__(self, path):
        self.path = path

    def get_location(self):
        return Gio.File.new_for_path(self.path)


provider = extension.VerdictScan()
selection = [File(path) for path in request['paths']]
older = provider.get_file_items(None, selection)
items = provider.get_file_items(selection)
answer['items'] = [item.properties for item in items]
answer['olderStyleItems'] = len(older)
signal, handler, data = items[0].handlers[0]
answer['signal'] = signal
handler(items[0], *data)
deadline = time.time() + 10
while time.time() < deadline:
    try:
        with open(request['out'], 'rb') as handle:
            if handle.read():
                break
    except FileNotFoundError:
        pass
    time.sleep(0.05)
print(json.dumps(answer))
