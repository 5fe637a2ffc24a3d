#!/usr/bin/env bash
# Renders the PNG icons from their SVG sources (run after editing an SVG; the PNGs
# are committed so packaging needs no SVG tooling). Needs rsvg-convert (Debian: librsvg2-bin).
set -euo pipefail
cd "$(dirname "$0")"
command -v rsvg-convert >/dev/null || { echo "rsvg-convert not found: apt-get install librsvg2-bin" >&2; exit 1; }
# App icon: electron-builder derives the Linux sizes, the macOS .icns and the Windows .ico from a 512 px PNG.
rsvg-convert -w 512 -h 512 icon.svg -o icon.png
# Tray: 22 px (Linux panels, macOS menu bar) plus @2x for HiDPI; Electron picks @2x itself.
for state in idle scanning threat; do
  rsvg-convert -w 22 -h 22 "tray/tray-$state.svg" -o "tray/tray-$state.png"
  rsvg-convert -w 44 -h 44 "tray/tray-$state.svg" -o "tray/tray-$state@2x.png"
done
ls -l icon.png tray/*.png
