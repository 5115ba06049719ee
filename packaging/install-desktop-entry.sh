#!/usr/bin/env bash
# Put fightdesk in the desktop's application menu, for a pip-installed fightdesk or for the
# Linux bundle (packaging/fightdesk.spec copies this script to the bundle's top folder).
# Installs the .desktop file, the AppStream metadata and the icon in every size under
# PREFIX (default ~/.local). Run from anywhere:
#   bash packaging/install-desktop-entry.sh        (pip install: fightdesk-gui on PATH)
#   bash /opt/fightdesk/install-desktop-entry.sh    (the bundle, wherever it was unpacked)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
prefix="${PREFIX:-$HOME/.local}"
app_id="io.github.fightdesk.Fightdesk"
sizes="16 22 24 32 48 64 128 256 512"

if [ -x "$here/fightdesk-gui" ] && [ -d "$here/_internal/fightdesk" ]; then
    # Inside the bundle: the menu entry starts this copy by its full path.
    files="$here/_internal/fightdesk/desktop"
    icons="$here/_internal/fightdesk/resources/icons"
    program="\"$here/fightdesk-gui\""
else
    files="$here"
    icons="$here/../resources/icons"
    program="fightdesk-gui"
    if ! command -v fightdesk-gui >/dev/null; then
        echo "note: fightdesk-gui is not on PATH; the menu entry starts it from there" >&2
    fi
fi

entry="$prefix/share/applications/$app_id.desktop"
mkdir -p "$(dirname "$entry")"
sed "s|^Exec=fightdesk-gui |Exec=$program |" "$files/$app_id.desktop" >"$entry"
chmod 644 "$entry"
install -Dm644 "$files/$app_id.metainfo.xml" "$prefix/share/metainfo/$app_id.metainfo.xml"
install -Dm644 "$icons/fightdesk.svg" "$prefix/share/icons/hicolor/scalable/apps/$app_id.svg"
for size in $sizes; do
    install -Dm644 "$icons/fightdesk-$size.png" \
        "$prefix/share/icons/hicolor/${size}x${size}/apps/$app_id.png"
done
if command -v update-desktop-database >/dev/null; then
    update-desktop-database "$prefix/share/applications" || true
fi
if command -v gtk-update-icon-cache >/dev/null; then
    gtk-update-icon-cache -q -t "$prefix/share/icons/hicolor" || true
fi
echo "fightdesk added to the application menu under $prefix/share (starts $program)"
