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

# Runs ROUNDS interleaved rounds of two variants, A and B, in an order that flips every round: each
# round calls "measure A" and "measure B" (a function the script defines, printing "key value" lines),
# prints each key's two values and their ratio (B over A), and at the end each key's median ratio with
# the smallest and largest. Usage: paired_rounds ROUNDS A B LABEL_A LABEL_B
paired_rounds() {
  local rounds="$1" a="$2" b="$3" label_a="$4" label_b="$5" dir r key va vb ratio
  dir=$(mktemp -d)
  declare -A ratios=()
  for r in $(seq 1 "$rounds"); do
    if [ $((r % 2)) -eq 1 ]; then
      measure "$a" >"$dir/a"; measure "$b" >"$dir/b"
    else
      measure "$b" >"$dir/b"; measure "$a" >"$dir/a"
    fi
    while read -r key va; do
      vb=$(awk -v k="$key" '$1 == k { print $2 }' "$dir/b")
      [ -n "$vb" ] || continue
      ratio=$(awk -v x="$vb" -v y="$va" 'BEGIN { printf "%.3f", x / y }')
      echo "round $r $key: $label_a $va, $label_b $vb, ratio $ratio"
      ratios["$key"]+="$ratio "
    done <"$dir/a"
  done
  for key in $(printf '%s\n' "${!ratios[@]}" | sort); do
    echo "$key: $label_b/$label_a median $(echo "${ratios[$key]}" | median)"
  done
  rm -rf "$dir"
}
