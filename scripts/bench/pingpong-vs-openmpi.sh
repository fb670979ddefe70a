#!/usr/bin/env bash
# Ping-pong between two processes on this machine, side by side: Open MPI's Java bindings over TCP
# (--mca btl tcp,self) and over shared memory (--mca btl vader,self), and Rewind's rank processes
# (--launch local, TCP on loopback) without fault tolerance and under `pessimistic`, and, on request,
# Rewind's rank processes talking through shared memory (--shm: rewind-shm, rewind-shm-pessimistic). Both sides run
# the same program, io.rewind.apps.bench.PortablePingPong (package mpi only), with the same JVM,
# sizes and round trips. The configurations run interleaved in rounds (each round runs every
# configuration once, in a rotating order); the table gives, per size, the median over the rounds
# of each run's median half round trip, the spread (lowest and highest run), and Rewind against
# Open MPI: the latency ratio up to 4 KiB (Rewind's half round trip / Open MPI's, 1 = as fast) and
# the bandwidth ratio from 16 KiB (Rewind's MB/s / Open MPI's, 1 = as fast).
#
# Usage: scripts/bench/pingpong-vs-openmpi.sh [--ompi-jar FILE] [--rounds N] [--out DIR] [--lock FILE]
#
# Needs an Open MPI installation with its Java bindings' native library (libmpi_java.so) and the
# matching mpi.jar, given by OMPI_JAR or --ompi-jar. Some distributions ship libmpi_java.so without
# mpi.jar; see docs/benchmarks.md ("Open MPI's mpi.jar") for how to build one. Nothing is downloaded.
#
# Environment (all optional except the jar):
#   OMPI_JAR        Open MPI's mpi.jar (or --ompi-jar)
#   MPIRUN          mpirun to use (default: mpirun on PATH)
#   OMPI_LIBDIR     folder holding libmpi_java.so (default: from `ompi_info --path libdir`)
#   OMPI_TCP_IF     interface for the TCP BTL (default: lo, as Rewind uses loopback)
#   OMPI_EXTRA_ARGS extra mpirun arguments (e.g. "--bind-to core"; default binds nothing, like Rewind)
#   JAVA            JVM for both sides (default: the JDK 25+ the rewind launcher would pick)
#   ROUNDS          rounds (default 3)       MAX_BYTES  largest size (default 4194304)
#   MIN_BYTES       smallest size (default 1) FACTOR    size step (default 4)
#   BATCHES         timed batches per size and run (default 5)
#   WORK_SCALE      scales round trips per batch (default 1)
#   WARM_UP_MS      extra warm-up at every size, in ms, before its batches (default 0: only the short
#                   count-based warm-up; see PortablePingPong)
#   CHECKPOINT_EVERY if set, Rewind runs take a checkpoint every that many checkpoint points (the program
#                   passes one before the first size and one before every batch); under a logging
#                   protocol a checkpoint truncates the log. With CHECKPOINT_EVERY=BATCHES each size
#                   truncates it once, so the log of a long warm-up does not pile up across sizes while
#                   the log still grows over a size's timed batches (default: no checkpoints, the log
#                   grows for the whole run)
#   LINK_RATE       if set (a tc rate: 10gbit, 25gbit, 1gbit), loopback is shaped to that rate for the
#                   whole script (a tbf queue as lo's root qdisc, removed when the script ends), so the
#                   ranks talk over a path with a wire speed below memory speed, as between two hosts.
#                   Needs tc (iproute2) and CAP_NET_ADMIN; refused if lo already has a root qdisc of
#                   its own. Everything else on loopback is shaped too while it runs.
#   RUN_TIMEOUT     seconds allowed per run (default 600); a run past it is killed and reported
#   BENCH_LOCK      if set (or --lock), every run holds `flock` on this file while it runs
#   QUIET_BELOW     if set (a percentage), before each run wait until the machine's CPUs were busy
#                   less than that over a 2 s sample (giving the lock back while waiting), for at most
#                   QUIET_WAIT seconds (default 600); the run then starts anyway. The busy share
#                   seen is recorded with each run.
#   OUT_DIR         where run logs and the table go (default: a new temporary folder)
#   CONFIGS         subset and order, default "ompi-tcp ompi-vader rewind-none rewind-pessimistic";
#                   also rewind-shm and rewind-shm-pessimistic (rank processes through shared memory),
#                   rewind-shm-spin (rewind-shm with waiting ranks spinning for good, never yielding),
#                   rewind-threads and rewind-threads-pessimistic (the two ranks as threads of one JVM), and
#                   rewind-global (checkpoints, nothing logged), rewind-pessimistic-dummy (pessimistic with
#                   the dummy log backend: the log copy into one reused area, nothing kept),
#                   rewind-pessimistic-reserved (pessimistic with --log-reserve LOG_RESERVE per rank)
#                   rewind-pessimistic-reserved-COPY: the same with --log-copy COPY (pack, pipelined,
#                   helper or hybrid); base-CONFIG: CONFIG run by the build in BASE_REPO (another checkout,
#                   built), to set a change side by side with the build before it
#   LOG_RESERVE     the reserve of rewind-pessimistic-reserved (default 1GiB: what one rank of this
#                   ping-pong logs at WORK_SCALE 1, so the log never waits for new memory)
#   BASE_REPO       the checkout the base-CONFIG configurations run
# With rewind-none among the configurations, the table also gives each other Rewind configuration's
# bandwidth over rewind-none's, paired by round (the run of each round against the rewind-none run of
# the same round): the median over the rounds, and the lowest and highest round.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"

die() {
  echo "pingpong-vs-openmpi: $*" >&2
  exit 2
}

while [ $# -gt 0 ]; do
  case "$1" in
    --ompi-jar) OMPI_JAR="${2:?--ompi-jar needs a file}"; shift 2 ;;
    --rounds) ROUNDS="${2:?--rounds needs a number}"; shift 2 ;;
    --out) OUT_DIR="${2:?--out needs a folder}"; shift 2 ;;
    --lock) BENCH_LOCK="${2:?--lock needs a file}"; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done

ROUNDS="${ROUNDS:-3}"
MAX_BYTES="${MAX_BYTES:-4194304}"
MIN_BYTES="${MIN_BYTES:-1}"
FACTOR="${FACTOR:-4}"
BATCHES="${BATCHES:-5}"
WORK_SCALE="${WORK_SCALE:-1}"
WARM_UP_MS="${WARM_UP_MS:-0}"
RUN_TIMEOUT="${RUN_TIMEOUT:-600}"
QUIET_WAIT="${QUIET_WAIT:-600}"
OMPI_TCP_IF="${OMPI_TCP_IF:-lo}"
OMPI_EXTRA_ARGS="${OMPI_EXTRA_ARGS:---bind-to none}"
CONFIGS="${CONFIGS:-ompi-tcp ompi-vader rewind-none rewind-pessimistic}"
MAIN=io.rewind.apps.bench.PortablePingPong
SRC="$repo/rewind-apps/src/main/java/io/rewind/apps/bench/PortablePingPong.java"

# --- Prerequisites: fail fast and say what is missing -------------------------------------------

case " $CONFIGS " in *" ompi-"*) need_ompi=1 ;; *) need_ompi=0 ;; esac
case " $CONFIGS " in *" rewind-"* | *" base-rewind-"*) need_rewind=1 ;; *) need_rewind=0 ;; esac

how_to_get_jar="Build one from Open MPI's Java sources (ompi/mpi/java/java/*.java of the installed Open MPI
version) with javac and jar, or build Open MPI with --enable-mpi-java, which installs lib/mpi.jar;
docs/benchmarks.md, section \"Open MPI's mpi.jar\", gives the steps. Then set OMPI_JAR=/path/to/mpi.jar."

if [ "$need_ompi" = 1 ]; then
  [ -n "${OMPI_JAR:-}" ] || die "no Open MPI mpi.jar given (OMPI_JAR or --ompi-jar).
$how_to_get_jar"
  [ -f "$OMPI_JAR" ] || die "OMPI_JAR=$OMPI_JAR does not exist.
$how_to_get_jar"
  MPIRUN="${MPIRUN:-$(command -v mpirun || true)}"
  [ -n "$MPIRUN" ] && [ -x "$MPIRUN" ] || die "mpirun not found (install Open MPI or set MPIRUN)"
  "$MPIRUN" --version 2>/dev/null | grep -q "Open MPI" ||
    die "$MPIRUN is not Open MPI's mpirun ($("$MPIRUN" --version 2>&1 | head -n 1))"
  if [ -z "${OMPI_LIBDIR:-}" ]; then
    ompi_info_bin="$(dirname "$MPIRUN")/ompi_info"
    [ -x "$ompi_info_bin" ] || ompi_info_bin="$(command -v ompi_info || true)"
    [ -n "$ompi_info_bin" ] && OMPI_LIBDIR="$("$ompi_info_bin" --path libdir --parsable 2>/dev/null |
      sed -n 's/^path:libdir:\(.*\)$/\1/p' | head -n 1)"
    [ -n "${OMPI_LIBDIR:-}" ] || OMPI_LIBDIR="$(cd "$(dirname "$MPIRUN")/../lib" 2>/dev/null && pwd || true)"
  fi
  [ -f "${OMPI_LIBDIR:-}/libmpi_java.so" ] ||
    die "no libmpi_java.so in '${OMPI_LIBDIR:-}' (set OMPI_LIBDIR; this Open MPI may lack Java support)"
fi
command -v timeout >/dev/null || die "timeout (coreutils) not found"
if [ -n "${BENCH_LOCK:-}" ]; then
  command -v flock >/dev/null || die "BENCH_LOCK is set but flock (util-linux) is not installed"
fi

java_major() {
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n 1
}

find_java() {
  local c m
  for c in ${JAVA:-} ${REWIND_JAVA:-} ${JAVA_HOME:+$JAVA_HOME/bin/java} $(command -v java || true) \
    /usr/lib/jvm/*/bin/java /usr/java/*/bin/java /opt/java/*/bin/java; do
    [ -x "$c" ] || continue
    m="$(java_major "$c" 2>/dev/null || true)"
    if [ -n "$m" ] && [ "$m" -ge 25 ]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

JAVA="$(find_java)" || die "no JDK 25 or newer found (set JAVA); both sides run on the same JVM"
JAVAC="$(dirname "$JAVA")/javac"
[ -x "$JAVAC" ] || die "no javac next to $JAVA (a JDK, not a JRE, is needed)"
[ -f "$SRC" ] || die "missing $SRC"

OUT_DIR="${OUT_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/pingpong-vs-openmpi.XXXXXX")}"
mkdir -p "$OUT_DIR/runs"
size_args=(array "$MAX_BYTES" "$BATCHES" "$MIN_BYTES" "$FACTOR" "$WORK_SCALE" "$WARM_UP_MS")
checkpoint_args=()
if [ -n "${CHECKPOINT_EVERY:-}" ]; then
  [[ "$CHECKPOINT_EVERY" =~ ^[1-9][0-9]*$ ]] || die "CHECKPOINT_EVERY must be a positive number, was $CHECKPOINT_EVERY"
  checkpoint_args=(--checkpoint-every "$CHECKPOINT_EVERY")
fi

if [ -n "${LINK_RATE:-}" ]; then
  [[ "$LINK_RATE" =~ ^[0-9]+(\.[0-9]+)?[kmgt]?(bit|bps)$ ]] ||
    die "LINK_RATE must be a tc rate such as 10gbit or 1gbit, was $LINK_RATE"
  command -v tc >/dev/null || die "LINK_RATE is set but tc (iproute2) is not installed"
  tc qdisc show dev lo | grep -q '^qdisc noqueue 0: root' ||
    die "lo already has a root qdisc ($(tc qdisc show dev lo | head -n 1)); not replacing it"
  # A burst of 512 KiB: at 10 Gbit/s the token bucket refills it in 0.4 ms, so no message waits on
  # the timer's granularity, and a message longer than it goes at the rate.
  tc qdisc add dev lo root tbf rate "$LINK_RATE" burst 512kb latency 20ms ||
    die "cannot shape lo (tc qdisc add failed: CAP_NET_ADMIN is needed)"
  trap 'tc qdisc del dev lo root 2>/dev/null || true' EXIT
  echo "loopback shaped: $(tc qdisc show dev lo | head -n 1)"
fi

# --- Build, outside any timed or locked part --------------------------------------------------------

if [ "$need_ompi" = 1 ]; then
  rm -rf "$OUT_DIR/classes"
  "$JAVAC" --release 17 -cp "$OMPI_JAR" -d "$OUT_DIR/classes" "$SRC" ||
    die "$SRC does not compile against $OMPI_JAR"
fi
if [ "$need_rewind" = 1 ]; then
  "$repo/rewind" --version >/dev/null || die "the rewind launcher failed to build or start"
fi

ompi_java_opts=(-Djava.library.path="${OMPI_LIBDIR:-}")
if [ "$need_ompi" = 1 ] && [ "$(java_major "$JAVA")" -ge 22 ]; then
  ompi_java_opts+=(--enable-native-access=ALL-UNNAMED) # mpi.MPI loads libmpi_java.so
fi

mpirun_base() {
  local args=(-np 2)
  [ "$(id -u)" = 0 ] && args+=(--allow-run-as-root)
  [ "$(nproc)" -lt 2 ] && args+=(--oversubscribe)
  # shellcheck disable=SC2206 # word splitting of the extra arguments is intended
  args+=(--mca pml ob1 $OMPI_EXTRA_ARGS)
  printf '%s\n' "$MPIRUN" "${args[@]}"
}

command_for() {
  local config="$1"
  local -a base
  if [ "${config#base-}" != "$config" ]; then
    [ -n "${BASE_REPO:-}" ] || die "$config needs BASE_REPO (the checkout to run it with)"
    repo="$BASE_REPO" command_for "${config#base-}"
    return
  fi
  case "$config" in
    ompi-tcp | ompi-vader)
      mapfile -t base < <(mpirun_base)
      if [ "$config" = ompi-tcp ]; then
        base+=(--mca btl tcp,self --mca btl_tcp_if_include "$OMPI_TCP_IF")
      else
        base+=(--mca btl vader,self)
      fi
      printf '%s\n' "${base[@]}" "$JAVA" "${ompi_java_opts[@]}" -cp "$OMPI_JAR:$OUT_DIR/classes" \
        "$MAIN" "${size_args[@]}"
      ;;
    rewind-none | rewind-pessimistic | rewind-global)
      printf '%s\n' "$repo/rewind" run -n 2 --launch local --no-record --protocol "${config#rewind-}" \
        --timeout "${RUN_TIMEOUT}s" "${checkpoint_args[@]}" "$MAIN" "${size_args[@]}"
      ;;
    rewind-pessimistic-dummy)
      printf '%s\n' "$repo/rewind" run -n 2 --launch local --no-record --protocol pessimistic \
        --log-backend dummy --timeout "${RUN_TIMEOUT}s" "${checkpoint_args[@]}" "$MAIN" "${size_args[@]}"
      ;;
    rewind-pessimistic-reserved)
      printf '%s\n' "$repo/rewind" run -n 2 --launch local --no-record --protocol pessimistic \
        --log-reserve "${LOG_RESERVE:-1GiB}" --timeout "${RUN_TIMEOUT}s" "${checkpoint_args[@]}" "$MAIN" "${size_args[@]}"
      ;;
    rewind-pessimistic-reserved-pack | rewind-pessimistic-reserved-pipelined | \
      rewind-pessimistic-reserved-helper | rewind-pessimistic-reserved-hybrid)
      printf '%s\n' "$repo/rewind" run -n 2 --launch local --no-record --protocol pessimistic \
        --log-reserve "${LOG_RESERVE:-1GiB}" --log-copy "${config##*-}" --timeout "${RUN_TIMEOUT}s" \
        "${checkpoint_args[@]}" "$MAIN" "${size_args[@]}"
      ;;
    rewind-threads | rewind-threads-pessimistic)
      # Ranks as threads of one JVM (no --launch): the engine's own hand-off, no transport.
      local protocol=none
      [ "$config" = rewind-threads-pessimistic ] && protocol=pessimistic
      printf '%s\n' "$repo/rewind" run -n 2 --no-record --protocol "$protocol" \
        --timeout "${RUN_TIMEOUT}s" "${checkpoint_args[@]}" "$MAIN" "${size_args[@]}"
      ;;
    rewind-shm | rewind-shm-pessimistic | rewind-shm-spin)
      local protocol=none
      local -a env=()
      [ "$config" = rewind-shm-pessimistic ] && protocol=pessimistic
      # rewind-shm-spin: waiting ranks spin on the ring for good instead of yielding their core after 100 polls.
      [ "$config" = rewind-shm-spin ] && env=(env JAVA_TOOL_OPTIONS=-Drewind.wait.spinPolls=2147483647)
      printf '%s\n' "${env[@]}" "$repo/rewind" run -n 2 --launch local --shm --no-record --protocol "$protocol" \
        --timeout "${RUN_TIMEOUT}s" "${checkpoint_args[@]}" "$MAIN" "${size_args[@]}"
      ;;
    *) die "unknown configuration: $config" ;;
  esac
}

if [ -n "${BENCH_LOCK:-}" ]; then
  exec {lock_fd}>>"$BENCH_LOCK" || die "cannot open the lock file $BENCH_LOCK"
fi

# Share of all CPUs busy (not idle or waiting for I/O) over a 2 s sample, from /proc/stat.
cpu_busy_pct() {
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat 2>/dev/null) || { echo "?"; return; }
  sleep 2
  b=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6}' /proc/stat 2>/dev/null) || { echo "?"; return; }
  echo "$a $b" | awk '{t = $3 - $1; i = $4 - $2; print (t > 0) ? int(100 * (t - i) / t) : "?"}'
}

run_one() {
  local config="$1" round="$2"
  local log="$OUT_DIR/runs/$config.round$round.log"
  local -a cmd
  mapfile -t cmd < <(command_for "$config")
  local asked rc=0 start load busy
  asked=$(date +%s)
  while :; do
    [ -n "${lock_fd:-}" ] && flock "$lock_fd" # held for this run only; waiting is not timed
    busy="$(cpu_busy_pct)"
    if [ -z "${QUIET_BELOW:-}" ] || [ "$busy" = "?" ] || [ "$busy" -lt "$QUIET_BELOW" ] ||
      [ $(($(date +%s) - asked)) -ge "$QUIET_WAIT" ]; then
      break
    fi
    [ -n "${lock_fd:-}" ] && flock -u "$lock_fd"
    sleep 15
  done
  start=$(date +%s)
  load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
  echo "# ${cmd[*]}" >"$log"
  echo "# load average (1 min) at start: $load; CPUs busy over the 2 s before: $busy %" >>"$log"
  if [ "${config#rewind-}" != "$config" ] || [ "${config#base-}" != "$config" ]; then
    REWIND_JAVA="$JAVA" timeout --kill-after=20 "$RUN_TIMEOUT" "${cmd[@]}" >>"$log" 2>&1 || rc=$?
  else
    timeout --kill-after=20 "$RUN_TIMEOUT" "${cmd[@]}" >>"$log" 2>&1 || rc=$?
  fi
  local end
  end=$(date +%s)
  [ -n "${lock_fd:-}" ] && flock -u "$lock_fd"
  local n
  n=$(sed 's/^\[[0-9]*\] *//' "$log" | grep -c '^pingpong,' || true)
  printf 'round %s  %-20s exit %-3s %4ss (waited %ss), load %s, busy before %s %%, %s sizes\n' \
    "$round" "$config" "$rc" "$((end - start))" "$((start - asked))" "$load" "$busy" "$n" >&2
  [ "$rc" = 124 ] && echo "  (killed after ${RUN_TIMEOUT}s; see $log)" >&2
  if [ "$rc" != 0 ] && [ "$rc" != 124 ]; then
    echo "  failed; last lines of $log:" >&2
    tail -n 5 "$log" >&2
  fi
  sed 's/^\[[0-9]*\] *//' "$log" | grep '^pingpong,' | sed "s/^/$config,$round,/" >>"$OUT_DIR/results.csv" || true
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
  echo "java: $("$JAVA" -version 2>&1 | head -n 1)"
  [ "$need_ompi" = 1 ] && echo "open mpi: $("$MPIRUN" --version 2>&1 | head -n 1), jar: $OMPI_JAR, libdir: $OMPI_LIBDIR"
  echo "program: $MAIN ${size_args[*]}; rounds: $ROUNDS; configurations: $CONFIGS; rewind checkpoints: ${CHECKPOINT_EVERY:-none}"
  echo "commands (one round):"
  for c in $CONFIGS; do
    echo "  $(command_for "$c" | tr '\n' ' ')"
  done
} | tee "$OUT_DIR/setup.txt" >&2

: >"$OUT_DIR/results.csv"
read -r -a configs <<<"$CONFIGS"
for ((r = 1; r <= ROUNDS; r++)); do
  for ((i = 0; i < ${#configs[@]}; i++)); do
    run_one "${configs[$(((i + r - 1) % ${#configs[@]}))]}" "$r" # rotate the order every round
  done
done

# --- Table ---------------------------------------------------------------------------------------

awk -F, -v configs="$CONFIGS" '
  # results.csv: config,round,pingpong,buffer,bytes,median_ns,MBps,copy_MBps,batches
  { key = $1 SUBSEP $5; n[key]++; v[key, n[key]] = $6; sizes[$5 + 0] = 1; byRound[$1, $5, $2] = $6; rounds[$2] = 1 }
  # Bandwidth of configuration c over rewind-none, paired by round: median over the rounds [low-high].
  function paired(c, b, r, k, i, j, t, x) {
    k = 0
    for (r in rounds) if (((c, b, r) in byRound) && (("rewind-none", b, r) in byRound) && byRound[c, b, r] > 0)
      x[++k] = byRound["rewind-none", b, r] / byRound[c, b, r]
    if (k == 0) return "-"
    for (i = 2; i <= k; i++) { t = x[i]; for (j = i - 1; j >= 1 && x[j] > t; j--) x[j + 1] = x[j]; x[j + 1] = t }
    return sprintf("%.2f [%.2f-%.2f]", (k % 2) ? x[(k + 1) / 2] : (x[k / 2] + x[k / 2 + 1]) / 2, x[1], x[k])
  }
  function sortv(key, k, i, j, t) {
    k = n[key]
    for (i = 1; i <= k; i++) s[i] = v[key, i]
    for (i = 2; i <= k; i++) { t = s[i]; for (j = i - 1; j >= 1 && s[j] > t; j--) s[j + 1] = s[j]; s[j + 1] = t }
    return k
  }
  function med(key, k) { k = sortv(key); if (k == 0) return -1; return (k % 2) ? s[(k + 1) / 2] : (s[k / 2] + s[k / 2 + 1]) / 2 }
  function lo(key, k) { k = sortv(key); return s[1] }
  function hi(key, k) { k = sortv(key); return s[k] }
  function fmt(x) { return (x >= 100) ? sprintf("%.0f", x) : (x >= 10) ? sprintf("%.1f", x) : sprintf("%.2f", x) }
  function cell(c, b, key, m) {
    key = c SUBSEP b; m = med(key)
    if (m < 0) return "-"
    if (b <= 4096) return fmt(m / 1000) " us [" fmt(lo(key) / 1000) "-" fmt(hi(key) / 1000) "]"
    return fmt(b / m * 1000) " MB/s [" fmt(b / hi(key) * 1000) "-" fmt(b / lo(key) * 1000) "]"
  }
  function ratio(a, o, b, ma, mo) {
    ma = med(a SUBSEP b); mo = med(o SUBSEP b)
    if (ma <= 0 || mo <= 0) return "-"
    if (b <= 4096) return sprintf("latency x%.1f", ma / mo)
    return sprintf("bandwidth %.2f", mo / ma)
  }
  function label(c) {
    if (c == "ompi-tcp") return "Open MPI tcp"
    if (c == "ompi-vader") return "Open MPI vader"
    if (c == "rewind-none") return "Rewind none"
    if (c == "rewind-pessimistic") return "Rewind pessimistic"
    if (c == "rewind-pessimistic-reserved") return "Rewind pessimistic reserved"
    if (c == "rewind-shm") return "Rewind shm"
    if (c == "rewind-shm-spin") return "Rewind shm spinning"
    if (c == "rewind-shm-pessimistic") return "Rewind shm pessimistic"
    return c
  }
  END {
    nc = split(configs, cs, " ")
    head = "| bytes |"; rule = "|---:|"
    for (i = 1; i <= nc; i++) { head = head " " label(cs[i]) " |"; rule = rule "---:|" }
    np = 0
    for (i = 1; i <= nc; i++) if (cs[i] ~ /^rewind-/) for (j = 1; j <= nc; j++) if (cs[j] ~ /^ompi-/) {
      np++; pa[np] = cs[i]; po[np] = cs[j]
      head = head " " label(cs[i]) " / " label(cs[j]) " |"; rule = rule "---:|"
    }
    nn = 0
    for (i = 1; i <= nc; i++) if (cs[i] != "rewind-none" && cs[i] ~ /rewind-/) for (j = 1; j <= nc; j++) if (cs[j] == "rewind-none") {
      nn++; pn[nn] = cs[i]
      head = head " " label(cs[i]) " / Rewind none, by round |"; rule = rule "---:|"
    }
    print head; print rule
    nb = 0; for (b in sizes) bs[++nb] = b + 0
    for (i = 2; i <= nb; i++) { t = bs[i]; for (j = i - 1; j >= 1 && bs[j] > t; j--) bs[j + 1] = bs[j]; bs[j + 1] = t }
    for (k = 1; k <= nb; k++) {
      b = bs[k]; line = "| " b " |"
      for (i = 1; i <= nc; i++) line = line " " cell(cs[i], b) " |"
      for (p = 1; p <= np; p++) line = line " " ratio(pa[p], po[p], b) " |"
      for (p = 1; p <= nn; p++) line = line " " paired(pn[p], b) " |"
      print line
    }
  }' "$OUT_DIR/results.csv" | tee "$OUT_DIR/table.md"

cat >&2 <<EOF

Up to 4 KiB a cell is the median over the rounds of each run's median half round trip, in brackets
the lowest and highest run; from 16 KiB it is the bandwidth of that median (bytes / half round trip),
in brackets the lowest and highest run. Ratios: latency = Rewind's half round trip / Open MPI's
(x1.0 = as fast); bandwidth = Rewind's MB/s / Open MPI's (1.00 = as fast). "/ Rewind none, by
round": that configuration's bandwidth over rewind-none's in the same round (at every size, small
ones included), median over the rounds [lowest-highest].
Run logs, results.csv and table.md are in $OUT_DIR
EOF
