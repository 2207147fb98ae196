#!/usr/bin/env bash
# Installs the P2P connection limits of the LNI spec ("Limits") with iptables, so they hold
# even when the node process is overloaded or down. See README.md beside this file.
set -euo pipefail
# Without this a failing command inside $(...) would go unnoticed.
shopt -s inherit_errexit

SCRIPT_PATH="$(readlink -f "${BASH_SOURCE[0]}")"
readonly SCRIPT_PATH
readonly UNIT_NAME=lni-p2p-firewall.service
readonly SUDOERS_NAME=lni-p2p-firewall
readonly INSTALLED_NAME=lni-p2p-firewall
readonly DEFAULT_SYSTEMD_DIR=/etc/systemd/system

# CORE_P2P_PORT is the node's own setting; reading it keeps the firewall on the node's port.
P2P_PORT="${P2P_PORT:-${CORE_P2P_PORT:-4000}}"
P2P_GLOBAL_CONN="${P2P_GLOBAL_CONN:-10}"
P2P_NEW_CONN="${P2P_NEW_CONN:-4}"
P2P_NEW_CONN_INTERVAL="${P2P_NEW_CONN_INTERVAL:-30}"
P2P_CHAIN="${P2P_CHAIN:-LNI-P2P}"
P2P_USER="${P2P_USER:-${SUDO_USER:-}}"
P2P_DOCKER="${P2P_DOCKER:-0}"
SYSTEMD_DIR="${SYSTEMD_DIR:-$DEFAULT_SYSTEMD_DIR}"
SUDOERS_DIR="${SUDOERS_DIR:-/etc/sudoers.d}"
SBIN_DIR="${SBIN_DIR:-/usr/local/sbin}"
IPTABLES="${IPTABLES:-iptables}"
IP6TABLES="${IP6TABLES:-ip6tables}"
P2P_FIREWALL_LOCK="${P2P_FIREWALL_LOCK:-/run/lni-p2p-firewall.lock}"
FAMILIES=()
# The built-in chains that may jump to the limits: INPUT for a node on this host, Docker's
# DOCKER-USER for a node in a container whose port is published here.
readonly HOOKS=(INPUT DOCKER-USER)
HOOK=INPUT

usage() {
  cat <<EOF
Usage: p2p-firewall.sh [options] <command>

Limits TCP connections to the LNI P2P port with iptables (and ip6tables when present):
at most P2P_GLOBAL_CONN simultaneous connections per source IP address, and at most
P2P_NEW_CONN new connections per P2P_NEW_CONN_INTERVAL seconds from all sources together.
Connections over a limit are refused with a TCP reset. Loopback traffic is not limited.
With --docker the node runs in a Docker container and the port is the one Docker publishes
on this host: the limits then sit in Docker's DOCKER-USER chain, which sees the connections
Docker forwards to the container (connections from this host itself reach the container
through Docker's proxy on loopback and are not limited).

Commands:
  start           install the limits (idempotent: running it again changes nothing)
  stop            remove the limits (fine when they are not installed)
  restart         stop, then start (also resets the new-connection window)
  status          show the installed rules and counters; exit 0 active, 3 not active
  install-boot    copy this script to SBIN_DIR/$INSTALLED_NAME and write the systemd unit
                  $UNIT_NAME and the sudoers drop-in $SUDOERS_NAME, so the
                  limits are applied again at every boot
  uninstall-boot  remove those three files (the limits stay until stop or a reboot)
  help            show this text

Options (each also read from the environment variable in brackets, then the default):
  --port N                 P2P TCP port [P2P_PORT, else CORE_P2P_PORT, 4000]
  --global-conn N          simultaneous connections per IP [P2P_GLOBAL_CONN, 10]
  --new-conn N             new connections per interval, all sources [P2P_NEW_CONN, 4]
  --new-conn-interval S    the interval in seconds [P2P_NEW_CONN_INTERVAL, 30]
  --chain NAME             iptables chain holding the rules [P2P_CHAIN, LNI-P2P]
  --user NAME              install-boot: the node's user allowed to run the installed
                           script through sudo without a password [P2P_USER, SUDO_USER]
  --docker                 limit the port Docker publishes for a containerised node, in
                           the DOCKER-USER chain [P2P_DOCKER=1; 0: the INPUT chain]

Environment only: SYSTEMD_DIR ($DEFAULT_SYSTEMD_DIR), SUDOERS_DIR (/etc/sudoers.d),
SBIN_DIR (/usr/local/sbin), IPTABLES (iptables), IP6TABLES (ip6tables),
P2P_FIREWALL_LOCK (/run/lni-p2p-firewall.lock).

Exit status: 0 done, 1 failed, 2 usage error, 3 status found the limits not active.
EOF
}

log() { printf 'p2p-firewall: %s\n' "$*" >&2; }

die() {
  log "error: $*"
  exit 1
}

usage_error() {
  log "error: $*"
  log "run 'p2p-firewall.sh help' for usage"
  exit 2
}

# The message names the variable, which is what an operator sets.
require_int() {
  local name="$1" value="$2" min="$3" max="$4"
  if [[ ! "$value" =~ ^[0-9]{1,9}$ ]] || ((10#$value < min || 10#$value > max)); then
    usage_error "$name must be an integer from $min to $max, got '$value'"
  fi
}

validate_settings() {
  require_int P2P_PORT "$P2P_PORT" 1 65535
  require_int P2P_GLOBAL_CONN "$P2P_GLOBAL_CONN" 1 65535
  # xt_recent keeps at most 255 timestamps per source, fewer when the module was loaded with
  # a non-zero ip_pkt_list_tot; the kernel rejects a larger hitcount.
  local max_new=255 list_tot_file=/sys/module/xt_recent/parameters/ip_pkt_list_tot list_tot
  if [[ -r "$list_tot_file" ]]; then
    list_tot="$(<"$list_tot_file")"
    if [[ "$list_tot" =~ ^[0-9]+$ ]] && ((list_tot > 0 && list_tot - 1 < max_new)); then
      max_new=$((list_tot - 1))
    fi
  fi
  require_int P2P_NEW_CONN "$P2P_NEW_CONN" 1 "$max_new"
  require_int P2P_NEW_CONN_INTERVAL "$P2P_NEW_CONN_INTERVAL" 1 86400
  # Leading zeros would otherwise reach iptables and the generated unit as written.
  P2P_PORT=$((10#$P2P_PORT))
  P2P_GLOBAL_CONN=$((10#$P2P_GLOBAL_CONN))
  P2P_NEW_CONN=$((10#$P2P_NEW_CONN))
  P2P_NEW_CONN_INTERVAL=$((10#$P2P_NEW_CONN_INTERVAL))
  [[ "$P2P_DOCKER" == 0 || "$P2P_DOCKER" == 1 ]] ||
    usage_error "P2P_DOCKER must be 0 or 1, got '$P2P_DOCKER'"
  if [[ "$P2P_DOCKER" == 1 ]]; then HOOK=DOCKER-USER; fi
  # The chain name is also the xt_recent list name; iptables allows 28 characters.
  if [[ ! "$P2P_CHAIN" =~ ^[A-Za-z0-9_-]{1,28}$ ]]; then
    usage_error "P2P_CHAIN must be 1-28 characters of A-Z a-z 0-9 _ -, got '$P2P_CHAIN'"
  fi
}

require_root() {
  ((EUID == 0)) || die "'$1' needs root (run it with sudo)"
}

# Fills FAMILIES with 4, and with 6 where ip6tables exists and works in this kernel.
detect_families() {
  command -v "$IPTABLES" >/dev/null || die "$IPTABLES not found; install the iptables package"
  FAMILIES=(4)
  if ! command -v "$IP6TABLES" >/dev/null; then
    log "IPv6: skipped, $IP6TABLES not found"
  elif ! "$IP6TABLES" -w 10 -S INPUT >/dev/null 2>&1; then
    log "IPv6: skipped, '$IP6TABLES -S INPUT' fails (IPv6 disabled in this kernel?)"
  else
    FAMILIES+=(6)
  fi
}

tool_of() {
  if [[ "$1" == 6 ]]; then echo "$IP6TABLES"; else echo "$IPTABLES"; fi
}

chain_exists() { "$1" -w 10 -S "$P2P_CHAIN" >/dev/null 2>&1; }

# Prints the rules of INPUT and DOCKER-USER that jump to the chain, whichever mode put them
# there; grep finding none is not an error.
jump_rules() {
  local tool="$1" hook rules
  for hook in "${HOOKS[@]}"; do
    rules="$("$tool" -w 10 -S "$hook" 2>/dev/null)" || continue
    grep -E -- " -j ${P2P_CHAIN}\$" <<<"$rules" || true
  done
}

# The jump of this mode: on the host, packets to the port; with Docker, packets of connections
# first addressed to the published port, which Docker's DNAT has already rewritten.
want_jump() {
  if [[ "$HOOK" == DOCKER-USER ]]; then
    echo "-A DOCKER-USER -p tcp -m conntrack --ctorigdstport $P2P_PORT --ctdir ORIGINAL -j $P2P_CHAIN"
  else
    echo "-A INPUT -p tcp -m tcp --dport $P2P_PORT -j $P2P_CHAIN"
  fi
}

# Docker creates DOCKER-USER at start and keeps a chain it finds, so the IPv4 limits may be
# installed before dockerd starts (at boot) as well as after. Docker filters IPv6 only when
# its ip6tables support is on, which the presence of its chain tells.
docker_families() {
  local family kept=()
  for family in "${FAMILIES[@]}"; do
    if [[ "$family" == 6 ]] && ! "$IP6TABLES" -w 10 -S DOCKER-USER >/dev/null 2>&1; then
      log "IPv6: skipped, $IP6TABLES has no DOCKER-USER chain (Docker does not filter IPv6)"
      continue
    fi
    kept+=("$family")
  done
  FAMILIES=("${kept[@]}")
}

delete_rule() {
  local tool="$1" words
  read -ra words <<<"$2"
  words[0]=-D
  "$tool" -w 10 "${words[@]}"
}

# Replaces the chain body in one iptables-restore transaction, so running start again never
# leaves a moment without limits. Order matters: a connection refused by the per-IP limit
# does not use up the global budget, and only connections let through are recorded.
# The recent list is keyed by the source address masked to nothing, so all sources share one
# entry: the new-connection limit is global, as the spec says, not per source.
apply_chain() {
  local family="$1" tool any=0.0.0.0 prefix=32
  tool="$(tool_of "$family")"
  if [[ "$family" == 6 ]]; then
    any=::
    prefix=128
  fi
  local new="-p tcp -m conntrack --ctstate NEW"
  local recent="-m recent --name $P2P_CHAIN --mask $any --rsource"
  local reset="-j REJECT --reject-with tcp-reset"
  "${tool}-restore" -w 10 --noflush <<RULES
*filter
:$P2P_CHAIN - [0:0]
-A $P2P_CHAIN -i lo -j RETURN
-A $P2P_CHAIN $new -m connlimit --connlimit-above $P2P_GLOBAL_CONN --connlimit-mask $prefix $reset
-A $P2P_CHAIN $new $recent --rcheck --seconds $P2P_NEW_CONN_INTERVAL --hitcount $P2P_NEW_CONN $reset
-A $P2P_CHAIN $new $recent --set
COMMIT
RULES
}

# Puts the jump for the configured port at the top of the mode's chain (INPUT or
# DOCKER-USER), so no earlier ACCEPT bypasses the limits, and removes jumps left by an earlier
# start with another port or mode. Presence is read from -S output rather than asked with -C,
# which ip6tables-legacy 1.8.9 answers wrongly (it ignores the port).
apply_jump() {
  local tool="$1" line jumps kept=0 want
  want="$(want_jump)"
  jumps="$(jump_rules "$tool")"
  if ! grep -qxF -- "$want" <<<"$jumps"; then
    if [[ "$HOOK" == DOCKER-USER ]]; then
      "$tool" -w 10 -I DOCKER-USER 1 -p tcp -m conntrack --ctorigdstport "$P2P_PORT" \
        --ctdir ORIGINAL -j "$P2P_CHAIN"
    else
      "$tool" -w 10 -I INPUT 1 -p tcp --dport "$P2P_PORT" -j "$P2P_CHAIN"
    fi
    jumps="$(jump_rules "$tool")"
  fi
  while IFS= read -r line; do
    if [[ "$line" == "$want" && $kept -eq 0 ]]; then
      kept=1
    elif [[ -n "$line" ]]; then
      delete_rule "$tool" "$line"
    fi
  done <<<"$jumps"
  jumps="$(jump_rules "$tool")"
  [[ "$jumps" == "$want" ]] ||
    die "$tool: expected the single $HOOK rule '$want', found: ${jumps:-none}"
}

# Serialises start/stop runs; iptables' own lock covers single commands only.
take_lock() {
  if command -v flock >/dev/null; then
    exec 9>"$P2P_FIREWALL_LOCK"
    flock -w 30 9 || die "another p2p-firewall.sh run holds $P2P_FIREWALL_LOCK"
  fi
}

cmd_start() {
  local family tool
  if [[ "$HOOK" == DOCKER-USER ]] && ! "$IPTABLES" -w 10 -S DOCKER-USER >/dev/null 2>&1; then
    "$IPTABLES" -w 10 -N DOCKER-USER
  fi
  for family in "${FAMILIES[@]}"; do
    tool="$(tool_of "$family")"
    apply_chain "$family"
    apply_jump "$tool"
    log "$tool: port $P2P_PORT limited to $P2P_GLOBAL_CONN connections per IP and" \
      "$P2P_NEW_CONN new connections per ${P2P_NEW_CONN_INTERVAL}s (chain $P2P_CHAIN," \
      "from $HOOK)"
  done
}

cmd_stop() {
  local family tool line jumps
  for family in "${FAMILIES[@]}"; do
    tool="$(tool_of "$family")"
    jumps="$(jump_rules "$tool")"
    if ! chain_exists "$tool" && [[ -z "$jumps" ]]; then
      log "$tool: limits were not installed (chain $P2P_CHAIN)"
      continue
    fi
    while IFS= read -r line; do
      [[ -z "$line" ]] || delete_rule "$tool" "$line"
    done <<<"$jumps"
    if chain_exists "$tool"; then
      "$tool" -w 10 -F "$P2P_CHAIN"
      "$tool" -w 10 -X "$P2P_CHAIN"
    fi
    log "$tool: limits removed (chain $P2P_CHAIN)"
  done
}

cmd_status() {
  local family tool jumps active=1
  for family in "${FAMILIES[@]}"; do
    tool="$(tool_of "$family")"
    jumps="$(jump_rules "$tool")"
    if chain_exists "$tool" && [[ -n "$jumps" ]]; then
      echo "$tool: active"
      echo "$jumps"
      "$tool" -w 10 -L "$P2P_CHAIN" -n -v -x
    else
      echo "$tool: not active (chain $P2P_CHAIN)"
      active=0
    fi
  done
  ((active)) || exit 3
}

# The command line the unit and sudoers run, with the settings in effect now made explicit,
# because neither systemd nor sudo passes the caller's environment on.
boot_command() {
  local docker=""
  if [[ "$HOOK" == DOCKER-USER ]]; then docker="--docker "; fi
  echo "$SBIN_DIR/$INSTALLED_NAME --port $P2P_PORT --global-conn $P2P_GLOBAL_CONN" \
    "--new-conn $P2P_NEW_CONN --new-conn-interval $P2P_NEW_CONN_INTERVAL" \
    "--chain $P2P_CHAIN $docker$1"
}

write_unit() {
  cat <<EOF
# Written by p2p-firewall.sh install-boot; remove it with uninstall-boot.
# iptables rules do not survive a reboot, so the LNI P2P connection limits are applied
# again at every boot, before the network comes up.
[Unit]
Description=LNI P2P connection limits (iptables)
DefaultDependencies=no
Wants=network-pre.target
Before=network-pre.target docker.service shutdown.target
After=local-fs.target systemd-modules-load.service
Conflicts=shutdown.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=$(boot_command start)
ExecStop=$(boot_command stop)

[Install]
WantedBy=multi-user.target
EOF
}

write_sudoers() {
  cat <<EOF
# Written by p2p-firewall.sh install-boot; remove it with uninstall-boot.
# Lets the LNI node's user apply, remove and inspect the P2P connection limits without a
# password prompt (for example from an @reboot job), and run nothing else as root.
Cmnd_Alias LNI_P2P_FIREWALL = $(boot_command start), \\
  $(boot_command stop), \\
  $(boot_command restart), \\
  $(boot_command status)
$P2P_USER ALL=(root) NOPASSWD: LNI_P2P_FIREWALL
EOF
}

# Whoever can edit a script they may run as root through sudo owns the machine, so sudoers
# names a root-owned copy in a directory only root can write, never the node's checkout.
install_copy() {
  local owner loose
  mkdir -p "$SBIN_DIR"
  owner="$(stat -c %u "$SBIN_DIR")"
  loose="$(find "$SBIN_DIR" -maxdepth 0 -perm /022)"
  if [[ "$owner" != 0 || -n "$loose" ]]; then
    die "SBIN_DIR $SBIN_DIR must be owned by root and writable only by root"
  fi
  install -m 0755 -o root -g root "$SCRIPT_PATH" "$SBIN_DIR/.$INSTALLED_NAME.tmp"
  mv -f "$SBIN_DIR/.$INSTALLED_NAME.tmp" "$SBIN_DIR/$INSTALLED_NAME"
}

# Written under a name starting with a dot, which sudo skips in sudoers.d, so a half-written
# or invalid entry is never live.
install_sudoers() {
  local target="$SUDOERS_DIR/$SUDOERS_NAME" tmp="$SUDOERS_DIR/.$SUDOERS_NAME.tmp" out
  [[ -d "$SUDOERS_DIR" ]] || mkdir -m 0750 "$SUDOERS_DIR"
  write_sudoers >"$tmp"
  chmod 0440 "$tmp"
  if command -v visudo >/dev/null; then
    if ! out="$(visudo -cf "$tmp" 2>&1)"; then
      rm -f "$tmp"
      die "visudo rejected the sudoers entry: $out"
    fi
  else
    log "visudo not found; the sudoers entry was written without a syntax check"
  fi
  mv -f "$tmp" "$target"
}

systemd_manages_dir() {
  [[ "$SYSTEMD_DIR" == "$DEFAULT_SYSTEMD_DIR" && -d /run/systemd/system ]] &&
    command -v systemctl >/dev/null
}

cmd_install_boot() {
  [[ -n "$P2P_USER" ]] || usage_error "install-boot needs the node's user: --user NAME or P2P_USER"
  [[ "$P2P_USER" =~ ^[a-z_][a-z0-9_.-]{0,31}$ ]] ||
    usage_error "P2P_USER must be a user name (a-z 0-9 _ . -), got '$P2P_USER'"
  id -u "$P2P_USER" >/dev/null 2>&1 || usage_error "P2P_USER '$P2P_USER' does not exist"
  # sudoers gives , : = \ and spaces a meaning; systemd splits ExecStart on spaces.
  [[ "$SBIN_DIR" =~ ^/[A-Za-z0-9_./-]+$ ]] ||
    usage_error "SBIN_DIR must be an absolute path of A-Z a-z 0-9 _ . / -, got '$SBIN_DIR'"
  install_copy
  mkdir -p "$SYSTEMD_DIR"
  write_unit >"$SYSTEMD_DIR/.$UNIT_NAME.tmp"
  mv -f "$SYSTEMD_DIR/.$UNIT_NAME.tmp" "$SYSTEMD_DIR/$UNIT_NAME"
  install_sudoers
  log "installed $SBIN_DIR/$INSTALLED_NAME, $SYSTEMD_DIR/$UNIT_NAME, $SUDOERS_DIR/$SUDOERS_NAME"
  if systemd_manages_dir; then
    systemctl daemon-reload
    systemctl enable "$UNIT_NAME"
    log "enabled $UNIT_NAME: the limits are applied at every boot"
  else
    log "systemd does not manage $SYSTEMD_DIR: enable $UNIT_NAME where it does, or have" \
      "$P2P_USER run 'sudo -n $(boot_command start)' at boot"
  fi
}

cmd_uninstall_boot() {
  if systemd_manages_dir && [[ -e "$SYSTEMD_DIR/$UNIT_NAME" ]]; then
    systemctl disable "$UNIT_NAME"
  fi
  rm -f "$SYSTEMD_DIR/$UNIT_NAME" "$SUDOERS_DIR/$SUDOERS_NAME" "$SBIN_DIR/$INSTALLED_NAME"
  if systemd_manages_dir; then
    systemctl daemon-reload
  fi
  log "removed $SYSTEMD_DIR/$UNIT_NAME, $SUDOERS_DIR/$SUDOERS_NAME, $SBIN_DIR/$INSTALLED_NAME" \
    "(the limits stay until stop or a reboot)"
}

need_value() {
  (($# >= 2)) || usage_error "$1 needs a value"
}

main() {
  local command=""
  while (($# > 0)); do
    case "$1" in
      --port)
        need_value "$@"
        P2P_PORT="$2"
        shift
        ;;
      --global-conn)
        need_value "$@"
        P2P_GLOBAL_CONN="$2"
        shift
        ;;
      --new-conn)
        need_value "$@"
        P2P_NEW_CONN="$2"
        shift
        ;;
      --new-conn-interval)
        need_value "$@"
        P2P_NEW_CONN_INTERVAL="$2"
        shift
        ;;
      --chain)
        need_value "$@"
        P2P_CHAIN="$2"
        shift
        ;;
      --user)
        need_value "$@"
        P2P_USER="$2"
        shift
        ;;
      --docker) P2P_DOCKER=1 ;;
      -h | --help | help)
        usage
        exit 0
        ;;
      -*) usage_error "unknown option '$1'" ;;
      *)
        [[ -z "$command" ]] || usage_error "one command expected, got '$command' and '$1'"
        command="$1"
        ;;
    esac
    shift
  done
  case "$command" in
    start | stop | restart | status | install-boot | uninstall-boot) ;;
    '') usage_error "a command is required" ;;
    *) usage_error "unknown command '$command'" ;;
  esac
  validate_settings
  require_root "$command"
  case "$command" in
    start | stop | restart)
      detect_families
      take_lock
      ;;
    status) detect_families ;;
    *) ;;
  esac
  case "$command" in
    start | restart | status) if [[ "$HOOK" == DOCKER-USER ]]; then docker_families; fi ;;
    *) ;;
  esac
  case "$command" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    restart)
      cmd_stop
      cmd_start
      ;;
    status) cmd_status ;;
    install-boot) cmd_install_boot ;;
    *) cmd_uninstall_boot ;;
  esac
}

main "$@"
