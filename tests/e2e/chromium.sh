#!/bin/sh
# Debian's Chromium, with every --disable-features list it is given merged into one. Chromium
# keeps only the last of a repeated switch, and each launcher (Playwright, puppeteer,
# chrome-launcher) passes a list of its own before the caller's flags, so the caller's list
# (browser.mjs, CHROMIUM_ARGS) would otherwise switch the launcher's features back on.
[ -x /usr/bin/chromium ] || {
  echo "$0: /usr/bin/chromium is missing: install Debian's chromium package (./scripts/setup installs it)" >&2
  exit 127
}
features=
for arg; do
  shift
  case $arg in
    --disable-features=*) features="$features${features:+,}${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec /usr/bin/chromium "$@" ${features:+"--disable-features=$features"}
