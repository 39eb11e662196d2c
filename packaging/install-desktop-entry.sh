#!/usr/bin/env bash
# Install (or remove) the desktop entry, AppStream metainfo and icons for the current user,
# in the XDG data folders, so "LLM Hardware Advisor" appears in the application menu.
#   packaging/install-desktop-entry.sh install     # needs `llm-advisor-gui` on PATH (pipx install .)
#   packaging/install-desktop-entry.sh uninstall
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
app_id="io.github.llm_hardware_advisor.Advisor"
data="${XDG_DATA_HOME:-$HOME/.local/share}"

install_files() {
  if ! command -v llm-advisor-gui >/dev/null 2>&1; then
    echo "warning: llm-advisor-gui is not on PATH; install the app first (pipx install .)" >&2
  fi
  install -Dm644 "$here/$app_id.desktop" "$data/applications/$app_id.desktop"
  install -Dm644 "$here/$app_id.metainfo.xml" "$data/metainfo/$app_id.metainfo.xml"
  install -Dm644 "$root/resources/icons/llm-advisor.svg" "$data/icons/hicolor/scalable/apps/$app_id.svg"
  for size in 16 24 32 48 64 128 256 512; do
    install -Dm644 "$root/resources/icons/llm-advisor-$size.png" \
      "$data/icons/hicolor/${size}x${size}/apps/$app_id.png"
  done
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
  echo "installed $app_id into $data"
}

uninstall_files() {
  rm -f "$data/applications/$app_id.desktop" "$data/metainfo/$app_id.metainfo.xml" \
    "$data/icons/hicolor/scalable/apps/$app_id.svg"
  for size in 16 24 32 48 64 128 256 512; do
    rm -f "$data/icons/hicolor/${size}x${size}/apps/$app_id.png"
  done
  command -v update-desktop-database >/dev/null && update-desktop-database -q "$data/applications" || true
  echo "removed $app_id from $data"
}

case "${1:-}" in
  install) install_files ;;
  uninstall) uninstall_files ;;
  *) echo "usage: $0 install|uninstall" >&2; exit 2 ;;
esac
