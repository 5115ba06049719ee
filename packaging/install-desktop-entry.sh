#!/usr/bin/env bash
# Put fightdesk in the desktop's application menu (for a pip-installed fightdesk).
# Installs the .desktop file, the AppStream metadata and the icon under PREFIX
# (default ~/.local). Run from anywhere: bash packaging/install-desktop-entry.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${PREFIX:-$HOME/.local}"
app_id="io.github.fightdesk.Fightdesk"
install -Dm644 "$here/$app_id.desktop" "$prefix/share/applications/$app_id.desktop"
install -Dm644 "$here/$app_id.metainfo.xml" "$prefix/share/metainfo/$app_id.metainfo.xml"
install -Dm644 "$here/../resources/icons/fightdesk.svg" \
    "$prefix/share/icons/hicolor/scalable/apps/$app_id.svg"
if command -v update-desktop-database >/dev/null; then
    update-desktop-database "$prefix/share/applications" || true
fi
echo "fightdesk added to the application menu under $prefix/share"
