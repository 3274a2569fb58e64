#!/usr/bin/env bash
# A throwaway MediaWiki from Debian's package (/usr/share/mediawiki, 1.39 in Debian 12) on SQLite,
# populated with generated data files, for the real-application bench and test.
#
#   scripts/real-apps/mediawiki.sh setup DIR [COUNT]   create the instance in DIR (must be empty or absent)
#   scripts/real-apps/mediawiki.sh serve DIR PORT      serve it on http://127.0.0.1:PORT/ (foreground)
#   scripts/real-apps/mediawiki.sh check               exit 0 when the packages are installed
#
# setup writes, besides the wiki: DIR/uploaded.txt (every uploaded file name, one a line) and
# DIR/linked.txt (those the wiki's pages link; the others only the API lists).
# Exit 2 (with the apt-get line) when the packages are missing.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MW=/usr/share/mediawiki
PACKAGES="mediawiki php-cli php-sqlite3 php-intl php-mbstring php-xml php-gd"

usage() {
  echo "usage: $0 setup DIR [COUNT] | $0 serve DIR PORT | $0 check" >&2
  exit 2
}

check_packages() {
  local missing=()
  [ -f "$MW/maintenance/install.php" ] || missing+=("mediawiki")
  if ! command -v php >/dev/null; then
    missing+=("php-cli")
  else
    local modules
    modules="$(php -m)"
    grep -qx pdo_sqlite <<<"$modules" || missing+=("php-sqlite3")
    grep -qx intl <<<"$modules" || missing+=("php-intl")
    grep -qx mbstring <<<"$modules" || missing+=("php-mbstring")
    grep -qx xml <<<"$modules" || missing+=("php-xml")
    grep -qx gd <<<"$modules" || missing+=("php-gd")
  fi
  if [ ${#missing[@]} -gt 0 ]; then
    echo "missing: ${missing[*]}. Install with:" >&2
    echo "  apt-get install -y --no-install-recommends $PACKAGES" >&2
    exit 2
  fi
}

setup() {
  local dir="$1" count="${2:-300}"
  if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
    echo "$dir is not empty: give a new or empty folder" >&2
    exit 2
  fi
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  mkdir -p "$dir/db" "$dir/images" "$dir/cache" "$dir/tmp" "$dir/source"
  export MW_CONFIG_FILE="$dir/LocalSettings.php"
  export MW_INSTANCE_DIR="$dir"

  # The port given here only fills $wgServer at install; LocalSettings takes the host of each request.
  php "$MW/maintenance/install.php" --quiet --dbtype sqlite --dbpath "$dir/db" --dbname wiki \
    --server "http://127.0.0.1:8080" --scriptpath "" --confpath "$dir" --skins Vector \
    --pass "forage-real-apps-admin" "Forage Data Wiki" Admin >"$dir/install.log" 2>&1 \
    || { cat "$dir/install.log" >&2; exit 1; }

  cat >>"$dir/LocalSettings.php" <<EOF

# --- scripts/real-apps/mediawiki.sh: a throwaway instance outside /var/lib/mediawiki ---
if ( PHP_SAPI === 'cli-server' && isset( \$_SERVER['HTTP_HOST'] ) ) {
	\$wgServer = 'http://' . \$_SERVER['HTTP_HOST'];
}
\$wgUploadDirectory = "$dir/images";
\$wgUploadPath = "/images";
\$wgCacheDirectory = "$dir/cache";
\$wgTmpDirectory = "$dir/tmp";
\$wgEnableUploads = true;
\$wgFileExtensions = array_merge( \$wgFileExtensions, [ 'csv', 'pdf', 'xlsx', 'zip' ] );
\$wgShowExceptionDetails = true;
EOF

  php "$HERE/generate-files.php" "$dir/source" "$count" 1
  php "$MW/maintenance/importImages.php" --conf "$dir/LocalSettings.php" --user Admin \
    --comment "Generated data file" --extensions csv,pdf,xlsx,zip,png,gif "$dir/source" >"$dir/import-images.log" 2>&1 \
    || { tail -20 "$dir/import-images.log" >&2; exit 1; }
  if grep -qiE 'failed|error' "$dir/import-images.log"; then
    grep -iE 'failed|error' "$dir/import-images.log" | head -20 >&2
    exit 1
  fi
  (cd "$dir/source" && ls | sort) >"$dir/uploaded.txt"

  php "$HERE/mediawiki-pages.php" "$dir/source" "$dir/pages.xml" "$dir/linked.txt"
  php "$MW/maintenance/importDump.php" --conf "$dir/LocalSettings.php" "$dir/pages.xml" >"$dir/import-pages.log" 2>&1 \
    || { tail -20 "$dir/import-pages.log" >&2; exit 1; }
  php "$MW/maintenance/rebuildrecentchanges.php" --conf "$dir/LocalSettings.php" >/dev/null 2>&1 || true
  echo "MediaWiki ready in $dir: $(wc -l <"$dir/uploaded.txt") files uploaded, $(wc -l <"$dir/linked.txt") linked from pages"
}

serve() {
  local dir port="$2"
  dir="$(cd "$1" && pwd)"
  [ -f "$dir/LocalSettings.php" ] || { echo "$dir holds no MediaWiki instance (run setup first)" >&2; exit 2; }
  export MW_CONFIG_FILE="$dir/LocalSettings.php"
  export MW_INSTANCE_DIR="$dir"
  # Several workers so that a crawl's file downloads do not queue behind a page render.
  export PHP_CLI_SERVER_WORKERS="${PHP_CLI_SERVER_WORKERS:-4}"
  exec php -S "127.0.0.1:$port" -t "$MW" "$HERE/mediawiki-router.php"
}

[ $# -ge 1 ] || usage
check_packages
case "$1" in
  check) ;;
  setup) [ $# -ge 2 ] || usage; setup "$2" "${3:-300}" ;;
  serve) [ $# -ge 3 ] || usage; serve "$2" "$3" ;;
  *) usage ;;
esac
