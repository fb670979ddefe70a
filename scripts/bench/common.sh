# Sourced by the paired benchmark scripts beside it: what each of them needs alike.

# Sets java to a JDK 25 or newer: REWIND_JAVA, else the first found where toolchain discovery looks.
find_java() {
  java="${REWIND_JAVA:-}"
  if [ -z "$java" ]; then
    for j in "${JAVA_HOME:-/nonexistent}/bin/java" /usr/lib/jvm/*/bin/java "$HOME"/.jdks/*/bin/java; do
      if [ -x "$j" ] && "$j" -version 2>&1 | grep -q 'version "\(2[5-9]\|[3-9][0-9]\)'; then java="$j"; break; fi
    done
  fi
  [ -n "$java" ] || { echo "no JDK 25 found (set REWIND_JAVA)" >&2; exit 2; }
}

# Reads numbers separated by blanks; prints their median, smallest and largest.
median() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] " (min " a[1] ", max " a[NR] ")" }'; }
