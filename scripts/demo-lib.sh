# The helpers of ./demo and ./demo-spring, sourced by both (not run). Set DEMO_NAME (the prefix of every message)
# and APP_NAME (said when the application is stopped) before sourcing. Loopback only: every port is 127.0.0.1's.

say() { printf '%s: %s\n' "$DEMO_NAME" "$*"; }
die() { printf '%s: %s\n' "$DEMO_NAME" "$*" >&2; exit 1; }

command -v java >/dev/null 2>&1 || die "java not found: install a JDK 17+ (e.g. sudo apt-get install openjdk-17-jdk)"
command -v mvn >/dev/null 2>&1 || die "mvn not found: install Maven (e.g. sudo apt-get install maven)"

# build MODULE FILE...: mvn package of MODULE (and what it needs) unless DEMO_SKIP_BUILD=1 and every FILE exists
build() {
  local module=$1 f missing=
  shift
  for f in "$@"; do [ -f "$f" ] || missing=1; done
  if [ "${DEMO_SKIP_BUILD:-0}" != 1 ] || [ -n "$missing" ]; then
    say "building (mvn -q -pl $module -am package -DskipTests) ..."
    mvn -B -q -pl "$module" -am package -DskipTests
  fi
  for f in "$@"; do [ -f "$f" ] || die "the build did not produce $f"; done
}

# --- ports and HTTP ------------------------------------------------------------------------------------
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {                      # free_port FIRST [EXCLUDED]: the first free port from FIRST on, not EXCLUDED
  local p=$1
  while port_in_use "$p" || [ "$p" = "${2:-}" ]; do
    p=$((p + 1))
    [ "$p" -lt $(($1 + 200)) ] || die "no free port near $1"
  done
  echo "$p"
}

http_ok() (                        # http_ok PORT PATH: a complete HTTP answer with status 200 (no curl needed)
  exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 1
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
  IFS= read -r -t 5 line <&3 || line=
  case "$line" in "HTTP/1."?" 200"*) exit 0 ;; *) exit 1 ;; esac
) 2>/dev/null

wait_http() {                      # wait_http PID PORT PATH WHAT: until PATH answers 200 (2 min); PID must live
  local _
  for _ in $(seq 1 240); do
    kill -0 "$1" 2>/dev/null || die "$4 exited during startup (see the log above)"
    ! http_ok "$2" "$3" || return 0
    sleep 0.5
  done
  die "$4 did not answer on port $2"
}

# --- processes: started in the background, stopped on exit, Ctrl-C or TERM ------------------------------
APP_PID= NGINX_PID=
stop_pid() {                       # stop_pid PID SIGNAL [WHAT]: WHAT stopped (said when given)
  [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 0
  kill -"$2" "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
  [ -z "${3:-}" ] || say "$3 stopped"
}
cleanup() {
  trap - EXIT INT TERM
  stop_pid "$NGINX_PID" TERM nginx
  stop_pid "$APP_PID" TERM "${APP_NAME:-}"       # APP_NAME empty: the application says it itself
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- nginx ---------------------------------------------------------------------------------------------
# NGINX_BIN: DEMO_NGINX, else nginx on the PATH or /usr/sbin/nginx; empty without one (or with DEMO_NGINX=none)
NGINX_BIN=${DEMO_NGINX:-$(command -v nginx 2>/dev/null || true)}
[ -n "$NGINX_BIN" ] || [ ! -x /usr/sbin/nginx ] || NGINX_BIN=/usr/sbin/nginx
[ "$NGINX_BIN" != none ] || NGINX_BIN=

# render_template TEMPLATE NAME...: the template with every ${NAME} replaced by the value of the variable NAME,
# inserted verbatim ($ and \ in a value are not special). Like the tests' renderer (TemplateRenderer): a NAME
# without a value or any other ${UPPER_CASE} placeholder is an error; nginx's $var and ${var} stay. Builtins only:
# a secret never appears on a command line.
render_template() {
  local LC_ALL=C template=$1 text= out= rest name re='\$\{([A-Z][A-Z0-9_]*)\}'
  shift
  IFS= read -r -d '' text <"$template" || [ -n "$text" ] || { say "cannot read $template" >&2; return 1; }
  rest=$text
  while [[ $rest =~ $re ]]; do
    name=${BASH_REMATCH[1]}
    case " $* " in *" $name "*) ;; *) name= ;; esac
    if [ -z "$name" ] || [ -z "${!name+set}" ]; then
      say "no value for placeholder ${BASH_REMATCH[0]} in $template" >&2
      return 1
    fi
    out+=${rest%%"${BASH_REMATCH[0]}"*}${!name}
    rest=${rest#*"${BASH_REMATCH[0]}"}
  done
  printf '%s' "$out$rest"
}

# nginx_user DIR...: prints "user root;" when nginx started by root would run its workers as nobody and one of the
# absolute DIRs, or a directory above it, does not let others through (o+x): only then do the demo's workers stay
# root. The rule of the tests' nginx (NginxUser in xaccel-test-support).
nginx_user() {
  [ "$(id -u)" = 0 ] || return 0
  local d
  for d in "$@"; do
    while :; do
      case "$(stat -L -c %A "$d" 2>/dev/null)" in ?????????[xt]) ;; *) echo 'user root;'; return 0 ;; esac
      [ "$d" != / ] || break
      d=$(dirname "$d")
    done
  done
}

# start_nginx PREFIX PORT DIR...: NGINX_BIN with PREFIX/nginx.conf in the foreground, a child of this script
# (NGINX_PID), until it listens on PORT. DIRs: what its workers must reach (nginx_user).
start_nginx() {
  local prefix=$1 port=$2 _
  shift 2
  "$NGINX_BIN" -p "$prefix" -e "$prefix/logs/error.log" -c "$prefix/nginx.conf" -g "daemon off; $(nginx_user "$@")" &
  NGINX_PID=$!
  for _ in $(seq 1 100); do
    kill -0 "$NGINX_PID" 2>/dev/null || break
    ! port_in_use "$port" || return 0
    sleep 0.1
  done
  die "nginx did not start (config: $prefix/nginx.conf, log: $prefix/logs/error.log)"
}
