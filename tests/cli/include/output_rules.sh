#!/bin/bash
# The output folder rules of docs/output.md, through the fftgen CLI: a full disk (ulimit -f) and a
# read-only folder leave the previous output whole; SIGKILL after random delays never leaves a
# manifest that lists a missing or mismatched file; two runs into one folder end in one whole
# output. Usage: output_rules.sh FFTGEN WORK_DIR
set -u
fftgen=$1
work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || fail "cannot make $work"

# Two plans with different kernels, so that switching between them replaces, adds and removes files.
cat > a.json <<'PLAN'
{"targets": ["spirv", "hlsl"], "kernels": [{"name": "a", "shape": [64]}, {"name": "b", "shape": [256]},
 {"name": "c", "shape": [1024], "direction": "forward"}]}
PLAN
cat > b.json <<'PLAN'
{"targets": ["spirv", "hlsl"], "kernels": [{"name": "a", "shape": [64], "normalize": "none"},
 {"name": "d", "shape": [128]}, {"name": "e", "shape": [2048], "direction": "inverse"}]}
PLAN
"$fftgen" a.json -o refA -q || fail "fftgen a.json"
"$fftgen" b.json -o refB -q || fail "fftgen b.json"

# Prints old/new when DIR is exactly refA/refB plus notes.txt (a user's file), "switching" when it has
# no manifest and a temporary folder beside it holds the interrupted switch; fails otherwise.
state_of() {
  local dir=$1 ref name f
  if [ ! -e "$dir/manifest.json" ]; then
    ls -d ".$dir.fftgen-"*/journal.json >/dev/null 2>&1 || fail "$dir has no manifest.json and no journal beside it"
    echo switching
    return
  fi
  for ref in refA refB; do
    cmp -s "$dir/manifest.json" "$ref/manifest.json" || continue
    for f in "$ref"/*; do
      cmp -s "$f" "$dir/${f##*/}" || fail "$dir/${f##*/} is missing or differs from $f, which its manifest lists"
    done
    for f in "$dir"/*; do
      name=${f##*/}
      [ "$name" = notes.txt ] || [ -e "$ref/$name" ] || fail "$dir/$name is a stray file"
    done
    [ "$(cat "$dir/notes.txt")" = mine ] || fail "the user's file $dir/notes.txt was touched"
    [ $ref = refA ] && echo old || echo new
    return
  done
  fail "$dir/manifest.json is neither plan's"
}
fresh_a() {
  rm -rf out .out.fftgen-* && "$fftgen" a.json -o out -q && echo mine > out/notes.txt || fail "fftgen a.json -o out"
}

# A full disk: every file over 4 KB fails with EFBIG.
fresh_a
msg=$(bash -c "ulimit -f 4; exec '$fftgen' b.json -o out -q" 2>&1) && fail "a full disk did not fail"
case $msg in *"File too large"*"still holds the previous output"*) ;; *) fail "full disk: unclear message: $msg" ;; esac
[ "$(state_of out)" = old ] || fail "full disk: out is not the previous output"
ls -d .out.fftgen-* >/dev/null 2>&1 && fail "full disk: the temporary folder was left behind"
echo "full disk: refused and undone: $msg"

# A read-only folder (as an unprivileged user when run as root, who may write anything), in a folder
# of /tmp that user can reach, beside a writable parent.
ro=$(mktemp -d /tmp/fftgen-output-rules.XXXXXX) || fail "mktemp"
trap 'chmod -R u+w "$ro"; rm -rf "$ro"' EXIT
chmod 777 "$ro" && cp "$fftgen" b.json "$ro/" && cp -r out refA refB "$ro/" && chmod 555 "$ro/out" || fail "setting up $ro"
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null || fail "run as root, the read-only case needs setpriv (util-linux) to drop privileges"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
else
  as_user=()
fi
msg=$(cd "$ro" && "${as_user[@]}" ./fftgen b.json -o out -q 2>&1) && fail "a read-only folder did not fail"
case $msg in *"Permission denied"*"still holds the previous output"*) ;; *) fail "read-only: unclear message: $msg" ;; esac
[ "$(cd "$ro" && state_of out)" = old ] || fail "read-only: out is not the previous output"
ls -d "$ro"/.out.fftgen-* >/dev/null 2>&1 && fail "read-only: the temporary folder was left behind"
echo "read-only folder: refused and undone: $msg"

# SIGKILL after random delays, each run writing the plan the folder does not hold. After each kill the folder is old, new or (killed
# during the switch itself) without a manifest and with the journal the next run restores it from.
# The delays spread over a whole run's time on this machine (measured), and 30% beyond it.
fresh_a
start=$(date +%s%N)
"$fftgen" b.json -o out -q || fail "fftgen b.json -o out"
run_ms=$((($(date +%s%N) - start) / 1000000 * 13 / 10 + 1))
fresh_a
declare -A seen
RANDOM=13
s=old
for i in $(seq 1 16); do
  plan=$([ $s = new ] && echo a.json || echo b.json)  # the other plan's, so that each run changes the folder
  "$fftgen" $plan -o out -q 2>/dev/null &
  pid=$!
  delay=$((RANDOM * 32768 % run_ms + RANDOM % run_ms))
  sleep "$((delay % run_ms / 1000)).$(printf '%03d' $((delay % run_ms % 1000)))"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
  s=$(state_of out) || exit 1
  seen[$s]=$((${seen[$s]:-0} + 1))
done
"$fftgen" a.json -o out -q || fail "the run after the kills failed"
[ "$(state_of out)" = old ] || fail "after the kills, a whole run of a.json did not give refA"
ls -d .out.fftgen-* >/dev/null 2>&1 && fail "after the kills, a temporary folder was left behind"
echo "kill loop: states after 16 kills within ${run_ms} ms: ${!seen[*]} = ${seen[*]}"

# Two runs of different plans into one folder at once: both succeed (one waits for the other's lock)
# and the folder is one whole output.
for i in 1 2; do
  fresh_a
  "$fftgen" b.json -o out -q & first=$!
  "$fftgen" a.json -o out -q & second=$!
  wait $first || fail "concurrent run of b.json failed"
  wait $second || fail "concurrent run of a.json failed"
  s=$(state_of out) || exit 1
  echo "two writers, round $i: the folder holds the $s output, whole"
done
echo "output rules hold"
