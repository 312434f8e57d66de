#!/bin/sh
# Installs the pipcam of this directory (bin/, share/) under a prefix, or removes it again.
# Usage: ./install.sh [--prefix DIR] [--uninstall]     (default prefix: /usr/local)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=/usr/local
action=install

usage() {
    echo "usage: ./install.sh [--prefix DIR] [--uninstall]"
    echo "  installs pipcam (binary, man page, desktop entry, icons, AppStream data, completions)"
    echo "  under DIR (default /usr/local; ~/.local needs no root); --uninstall removes those files"
}
while [ $# -gt 0 ]; do
    case $1 in
        --prefix) [ $# -ge 2 ] || { echo "install.sh: --prefix needs a directory (see ./install.sh --help)" >&2; exit 2; }
                  prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --uninstall) action=uninstall; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument '$1' (see ./install.sh --help)" >&2; exit 2 ;;
    esac
done
case $prefix in
    /*) ;;
    *) prefix=$(pwd)/$prefix ;;
esac

files=$(cd "$here" && find bin share -type f | LC_ALL=C sort)
for file in $files; do
    if [ "$action" = uninstall ]; then
        rm -f "$prefix/$file"
    else
        mode=644
        [ "${file#bin/}" = "$file" ] || mode=755
        mkdir -p "$(dirname "$prefix/$file")"
        cp "$here/$file" "$prefix/$file.new"
        chmod "$mode" "$prefix/$file.new"
        mv -f "$prefix/$file.new" "$prefix/$file"
    fi
done

# Desktops find a new icon and entry after these (where they are installed; harmless without).
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$prefix/share/icons/hicolor/index.theme" ]; then
    gtk-update-icon-cache -q -t "$prefix/share/icons/hicolor" 2>/dev/null || true
fi
if command -v update-desktop-database >/dev/null 2>&1 && [ -d "$prefix/share/applications" ]; then
    update-desktop-database -q "$prefix/share/applications" 2>/dev/null || true
fi

if [ "$action" = uninstall ]; then
    echo "install.sh: removed pipcam from $prefix"
    exit 0
fi
echo "install.sh: installed pipcam under $prefix"
# The binary carries the Swift runtime; the X11, V4L2 and JPEG libraries come from the system.
missing=$(ldd "$prefix/bin/pipcam" 2>/dev/null | awk '/not found/ { print $1 }' | tr '\n' ' ')
if [ -n "$missing" ]; then
    echo "install.sh: pipcam needs these libraries, not found here: $missing" >&2
    echo "  Debian/Ubuntu: sudo apt-get install libx11-6 libxext6 libxinerama1 libxrandr2 libv4l-0 libturbojpeg0" >&2
    echo "  Fedora: sudo dnf install libX11 libXext libXinerama libXrandr libv4l turbojpeg" >&2
    echo "  Arch: sudo pacman -S libx11 libxext libxinerama libxrandr v4l-utils libjpeg-turbo" >&2
    exit 1
fi
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "install.sh: $prefix/bin is not on your PATH; add it, or run $prefix/bin/pipcam" ;;
esac
