#!/usr/bin/env bash
# install.sh: installs docintel @VERSION@ from this directory as a systemd service on Debian/Ubuntu.
#
#   sudo ./install.sh             install (or upgrade) and start the service
#   ./install.sh --dry-run        print every step without doing any (no root needed)
#
# Steps: Debian packages the binary runs (Chromium, LibreOffice, tesseract, ...); the system user
# 'docintel' and its data dir; the binary; an environment file for settings (kept on upgrade); the
# first API key, written to a root-only file (only when the store has no key yet); the systemd unit,
# enabled and started. Run it again to upgrade: the data dir, settings and keys are kept.
set -euo pipefail

VERSION="@VERSION@"
APT_PACKAGES="@APT_PACKAGES@"

USER_NAME=docintel
BIN=/usr/local/bin/docintel
DATA_DIR=/var/lib/docintel
CONF_DIR=/etc/docintel
ENV_FILE=$CONF_DIR/docintel.env
KEY_FILE=$CONF_DIR/first-api-key
UNIT_FILE=/etc/systemd/system/docintel.service

DRY_RUN=0
INSTALL_PACKAGES=1
START=1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

usage() {
  cat <<EOF
usage: sudo ./install.sh [--dry-run] [--no-packages] [--no-start]

Installs docintel $VERSION: Debian packages, user $USER_NAME, $DATA_DIR, $BIN,
$ENV_FILE (settings), the first API key in $KEY_FILE, and $UNIT_FILE (enabled, started).

  --dry-run       print what would be done, change nothing
  --no-packages   do not run apt-get (install the packages yourself: $APT_PACKAGES)
  --no-start      install everything but do not enable or start the service
EOF
}

for arg in "$@"; do
  case "$arg" in
    --dry-run) DRY_RUN=1 ;;
    --no-packages) INSTALL_PACKAGES=0 ;;
    --no-start) START=0 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "install.sh: unknown option '$arg'" >&2; usage >&2; exit 2 ;;
  esac
done

# run prints a step; it runs it unless --dry-run
run() {
  echo "+ $*"
  if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}

# write_file PATH MODE OWNER: writes stdin to PATH (via a temp file, then install), or prints it under --dry-run
write_file() {
  local path=$1 mode=$2 owner=$3 content
  content=$(cat)
  echo "+ write $path (mode $mode, owner $owner):"
  printf '%s\n' "$content" | sed 's/^/|   /'
  if [ "$DRY_RUN" = 0 ]; then
    local tmp
    tmp=$(mktemp)
    printf '%s\n' "$content" >"$tmp"
    install -m "$mode" -o "${owner%%:*}" -g "${owner##*:}" "$tmp" "$path"
    rm -f "$tmp"
  fi
}

for f in docintel docintel.service; do
  [ -f "$HERE/$f" ] || { echo "install.sh: $HERE/$f is missing; run install.sh from the unpacked docintel-$VERSION-linux-x64 directory" >&2; exit 1; }
done
if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run as root (sudo ./install.sh), or see the steps with ./install.sh --dry-run" >&2
  exit 1
fi
if [ "$DRY_RUN" = 0 ] && ! command -v systemctl >/dev/null 2>&1 && [ "$START" = 1 ]; then
  echo "install.sh: systemctl not found: this installer sets docintel up as a systemd service (use --no-start to install without it)" >&2
  exit 1
fi

echo "docintel $VERSION$([ "$DRY_RUN" = 1 ] && echo " (dry run: nothing is changed)")"

echo "== 1. Debian packages"
if [ "$INSTALL_PACKAGES" = 1 ]; then
  run apt-get update -qq
  # shellcheck disable=SC2086
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $APT_PACKAGES
else
  echo "skipped (--no-packages); needed: $APT_PACKAGES"
fi

echo "== 2. user $USER_NAME and data dir $DATA_DIR"
if id -u "$USER_NAME" >/dev/null 2>&1; then
  echo "user $USER_NAME exists"
else
  run useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
fi
run install -d -m 0700 -o "$USER_NAME" -g "$USER_NAME" "$DATA_DIR"
run install -d -m 0700 -o "$USER_NAME" -g "$USER_NAME" /var/cache/docintel
run install -d -m 0750 -o root -g "$USER_NAME" "$CONF_DIR"

echo "== 3. binary $BIN"
if [ "$DRY_RUN" = 1 ]; then
  echo "+ systemctl stop docintel   (only when it is running: an upgrade)"
elif [ "$START" = 1 ] && systemctl is-active --quiet docintel 2>/dev/null; then
  run systemctl stop docintel
fi
run install -m 0755 "$HERE/docintel" "$BIN"

echo "== 4. settings $ENV_FILE"
if [ -f "$ENV_FILE" ]; then
  echo "$ENV_FILE exists; kept"
else
  write_file "$ENV_FILE" 0640 "root:$USER_NAME" <<'EOF'
# docintel settings, read by the systemd unit. Any option of 'docintel serve --help' can be set
# here as DOCINTEL_<FLAG>=value; restart after a change: sudo systemctl restart docintel
DOCINTEL_HOST=0.0.0.0
DOCINTEL_PORT=8080
# The URL clients reach the service at (absolute URLs in responses):
# DOCINTEL_PUBLIC_URL=https://docs.example.com
# AI extraction, analyze, decide and transcription need a Groq key:
# GROQ_API_KEY=gsk_...
# Several machines behind a load balancer share one PostgreSQL database (README "Running several
# machines"); the same lines on every machine, the same DOCINTEL_PUBLIC_URL, and keys made once
# with 'docintel keys create --plan pro --database URL':
# DOCINTEL_DATABASE=postgres://docintel:PASSWORD@db.internal:5432/docintel
# DOCINTEL_NO_BOOTSTRAP_KEY=true
EOF
fi

echo "== 5. first API key"
# a machine of several on PostgreSQL: its keys are the database's, made once for all machines
database=$(sed -n 's/^DOCINTEL_DATABASE=["'"'"']\{0,1\}//p' "$ENV_FILE" 2>/dev/null | tail -n 1 || true)
keys_now() {
  runuser -u "$USER_NAME" -- "$BIN" keys list --data "$DATA_DIR" | tail -n +2 | grep -c . || true
}
if [ "${database#postgres}" != "$database" ]; then
  echo "$ENV_FILE sets DOCINTEL_DATABASE (PostgreSQL): no key made here; make keys once for all machines with $BIN keys create --plan pro --database URL"
elif [ "$DRY_RUN" = 1 ]; then
  echo "+ runuser -u $USER_NAME -- $BIN keys create --plan pro --name first --data $DATA_DIR   (only when the store has no key)"
  echo "+ write $KEY_FILE (mode 0600, owner root:root): the key"
elif [ "$(keys_now)" = 0 ]; then
  key=$(runuser -u "$USER_NAME" -- "$BIN" keys create --plan pro --name first --data "$DATA_DIR" | tail -n 1)
  write_file "$KEY_FILE" 0600 root:root <<<"$key" >/dev/null
  echo "created the first key (plan pro) in $KEY_FILE"
else
  echo "the store already has keys; none created (docintel keys create --plan pro --data $DATA_DIR, as $USER_NAME, makes more)"
fi

echo "== 6. systemd unit $UNIT_FILE"
run install -m 0644 "$HERE/docintel.service" "$UNIT_FILE"
if [ "$START" = 1 ]; then
  run systemctl daemon-reload
  run systemctl enable --now docintel
else
  echo "not started (--no-start); start with: systemctl daemon-reload && systemctl enable --now docintel"
fi

port=$(sed -n 's/^DOCINTEL_PORT=//p' "$ENV_FILE" 2>/dev/null || true)
port=${port:-8080}
cat <<EOF

docintel $VERSION $([ "$DRY_RUN" = 1 ] && echo "would be installed" || echo "is installed").
  first API key:  $KEY_FILE   (sudo cat $KEY_FILE)
  settings:       $ENV_FILE
  data:           $DATA_DIR
  logs:           journalctl -u docintel -f
  try it:         curl -s http://127.0.0.1:$port/healthz
                  curl -s -H "X-API-Key: \$(sudo cat $KEY_FILE)" http://127.0.0.1:$port/api/v1/usage
  more keys:      sudo -u $USER_NAME $BIN keys create --plan pro --data $DATA_DIR
EOF
