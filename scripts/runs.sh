#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Runs a benchmark command N times, each run into its own new directory, so that
# `mpibench compare BASE... -- NEW...` gets whole runs as its samples (docs/runs.md):
#   scripts/runs.sh [-o DIR] N -- COMMAND...              DIR/RUN-1 .. DIR/RUN-N
#   scripts/runs.sh [-o DIR] --ab N 'COMMAND A' 'COMMAND B'
#                                  DIR/A-1..A-N and DIR/B-1..B-N, interleaved A B B A A B B A ...
# Exit status: 0 every run succeeded, 1 some run failed, 2 bad input (nothing run or created).
set -u

me=runs.sh

usage() {
    cat <<'EOF'
Usage: scripts/runs.sh [-o DIR] N -- COMMAND...
       scripts/runs.sh [-o DIR] --ab N 'COMMAND A' 'COMMAND B'

Runs a benchmark N times back to back, each run writing into a new directory of its own,
so that `mpibench compare BASE... -- NEW...` can compare groups of whole runs.

  N -- COMMAND...   run COMMAND N times; run i writes into DIR/RUN-i. Every '{}' in
                    COMMAND, also inside a word ({}/results.jsonl), becomes that run's
                    directory. COMMAND is run as given, without a shell.
  --ab N 'A' 'B'    interleaved A/B: run the shell command A N times into DIR/A-1..A-N and
                    B N times into DIR/B-1..B-N, in the order A B B A A B B A ... (ABBA
                    blocks: a drift of the machine over time falls on both sides alike; an
                    odd N cuts the last block to A B). Each command is one shell string,
                    run with sh -c; every '{}' in it becomes the run's directory, already
                    quoted for the shell (write {} bare, not '{}' or "{}").
  -o DIR            where the run directories go (default: the current directory; created
                    if missing)
  -h, --help        this text

COMMAND must contain '{}' where the run's directory goes, for example
  --output-dir {}              for mpibench run (the main job)
  --json {}/results.jsonl      for a suite (mpibench imb-mpi1, IMB-MPI1, b_eff, ...)

Each run's directory is created, empty, just before the run. A run directory that exists
and is not empty is never written into: the script refuses before running anything.
A failed run does not stop the others. One line per run on stderr (its exit status and
seconds), then the failed runs and the `mpibench compare` command for the results.
Exit status: 0 all runs succeeded, 1 a run failed, 2 bad input (nothing run or created).

Examples:
  scripts/runs.sh -o base 5 -- mpirun -np 4 mpibench run --quick --output-dir {}
  scripts/runs.sh -o ab --ab 5 'mpirun -np 2 old/mpibench imb-mpi1 PingPong --json {}/results.jsonl' \
                               'mpirun -np 2 new/mpibench imb-mpi1 PingPong --json {}/results.jsonl'
EOF
}

# Bad input: one message naming the argument, status 2, before anything is created.
bad() {
    printf '%s: %s (see %s --help)\n' "$me" "$1" "$me" >&2
    exit 2
}

# A target that is in the way: status 2 too, nothing run.
refuse() {
    printf '%s: %s\n' "$me" "$1" >&2
    exit 2
}

# For the shell string of --ab and for the lines printed: the argument as one shell word.
# Sets q (no command substitution: it would drop trailing newlines of a name).
quote() {
    case $1 in
    '' | *[!A-Za-z0-9_./:=+,@%-]*) ;;
    *) q=$1; return ;;
    esac
    q='' rest=$1
    while :; do
        case $rest in
        *\'*)
            q="$q${rest%%\'*}'\\''"
            rest=${rest#*\'}
            ;;
        *)
            q="'$q$rest'"
            return
            ;;
        esac
    done
}

# Every '{}' of $1 replaced by $2; sets s.
subst() {
    s='' rest=$1
    while :; do
        case $rest in
        *'{}'*)
            s="$s${rest%%\{\}*}$2"
            rest=${rest#*\{\}}
            ;;
        *)
            s=$s$rest
            return
            ;;
        esac
    done
}

# Seconds since the epoch, with fractions where date has %N (GNU, busybox).
now() {
    t=$(date +%s.%N 2>/dev/null)
    case $t in
    *[!0-9.]* | '' | *.) t=$(date +%s) ;;
    esac
}

# ---- arguments ----------------------------------------------------------------------------
dir=. ab=0
while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        usage
        exit 0
        ;;
    -o)
        [ $# -ge 2 ] || bad "option '-o' needs a directory"
        [ -n "$2" ] || bad "option '-o': the directory is empty"
        dir=$2
        shift 2
        ;;
    --ab)
        ab=1
        shift
        ;;
    --) bad "N missing: give the number of runs before '--'" ;;
    -[0-9]*) break ;; # a negative N: refused below as N
    -?*) bad "unknown option '$1'" ;;
    *) break ;;
    esac
done

[ $# -gt 0 ] || bad "N missing: give the number of runs, then '--' and the command"
n=$1 n_arg=$1
shift
case $n in
'' | *[!0-9]*) bad "N '$n' is not a positive integer" ;;
esac
# Leading zeros would make some shells read N as octal; more than 5 digits is no plan of
# runs but a typing error, and keeps the arithmetic far from overflow.
while [ "${n#0}" != "$n" ]; do n=${n#0}; done
[ -n "$n" ] || bad "N '$n_arg' is not a positive integer"
[ ${#n} -le 5 ] || bad "N '$n' is too large (at most 99999 runs)"

hint="put {} where the run's directory goes, e.g. '--output-dir {}' for 'mpibench run', '--json {}/results.jsonl' for a suite"
if [ $ab = 0 ]; then
    [ $# -gt 0 ] || bad "'--' missing after N '$n': N -- COMMAND..."
    [ "$1" = "--" ] || bad "'--' missing after N '$n': found '$1' (N -- COMMAND...)"
    shift
    [ $# -gt 0 ] || bad "no command after '--'"
    found=0
    for w; do
        case $w in *'{}'*) found=1 ;; esac
    done
    [ $found = 1 ] || bad "the command has no '{}': $hint"
    total=$n
else
    # '--' before the two commands is optional: the commands are single arguments.
    [ $# -gt 0 ] && [ "$1" = "--" ] && shift
    [ $# -eq 2 ] || bad "--ab N needs two commands, each one quoted shell string ('COMMAND A' 'COMMAND B'); got $# argument(s) after N"
    cmd_a=$1 cmd_b=$2
    [ -n "$cmd_a" ] || bad "COMMAND A is empty"
    [ -n "$cmd_b" ] || bad "COMMAND B is empty"
    case $cmd_a in *'{}'*) ;; *) bad "COMMAND A has no '{}': $hint" ;; esac
    case $cmd_b in *'{}'*) ;; *) bad "COMMAND B has no '{}': $hint" ;; esac
    total=$((2 * n))
fi

# The run directory as the command sees it: no doubled slash, and never a leading '-' that
# the command would read as an option.
while [ "$dir" != "/" ] && [ "${dir%/}" != "$dir" ]; do dir=${dir%/}; done
case $dir in -*) dir=./$dir ;; esac

# The run names in the order they run: RUN-1..N, or for --ab the ABBA sequence, in which
# pair k (k = 0, 1, ...) is A B when k is even and B A when k is odd.
names=
if [ $ab = 0 ]; then
    i=1
    while [ $i -le "$n" ]; do names="$names RUN-$i" i=$((i + 1)); done
else
    k=0
    while [ $k -lt "$n" ]; do
        if [ $((k % 2)) = 0 ]; then
            names="$names A-$((k + 1)) B-$((k + 1))"
        else
            names="$names B-$((k + 1)) A-$((k + 1))"
        fi
        k=$((k + 1))
    done
fi

# Never overwrite: every target is checked before the first run, so that a mistaken -o or a
# repeated command ends here and not after hours of runs, in the middle of someone's results.
if [ -e "$dir" ] || [ -L "$dir" ]; then
    [ -d "$dir" ] || refuse "'$dir' (-o) exists and is not a directory"
fi
for name in $names; do
    d=${dir%/}/$name
    if [ -L "$d" ] && [ ! -e "$d" ]; then
        refuse "run directory '$d' is a dangling symbolic link: nothing run"
    fi
    [ -e "$d" ] || continue
    [ -d "$d" ] || refuse "run directory '$d' exists and is not a directory: nothing run"
    entries=$(ls -A "$d" 2>/dev/null) || refuse "run directory '$d' exists and cannot be read: nothing run"
    [ -z "$entries" ] || refuse "run directory '$d' exists and is not empty: nothing run (choose another -o, or move it away)"
done

# ---- the runs -----------------------------------------------------------------------------
if [ ! -d "$dir" ]; then
    mkdir -p -- "$dir" || refuse "cannot create '$dir' (-o): nothing run"
fi

run_argv() { # the command's words with '{}' replaced by $1, run without a shell
    r=$1
    shift
    c=$#
    while [ "$c" -gt 0 ]; do
        subst "$1" "$r"
        shift
        set -- "$@" "$s"
        c=$((c - 1))
    done
    "$@"
}

current=
# The shell runs a trap only once the run in progress has ended: say which run was cut short
# and stop, rather than go on with the next.
trap 'echo "$me: interrupted during run $current: no further runs (its directory may hold partial results)" >&2; exit 130' INT
trap 'echo "$me: terminated during run $current: no further runs (its directory may hold partial results)" >&2; exit 143' TERM

failed='' nfailed=0 done_a='' done_b='' done_run='' i=0
for name in $names; do
    i=$((i + 1))
    d=${dir%/}/$name
    current="$i of $total: $name"
    now
    t0=$t
    # Created just before its run (not all up front), so that a directory holds files only
    # for a run that happened; checked again in case something wrote there since the start.
    if ! mkdir -p -- "$d" 2>/dev/null; then
        status="not run: cannot create '$d'"
        rc=1
    elif [ -n "$(ls -A "$d" 2>/dev/null)" ]; then
        status="not run: '$d' is no longer empty"
        rc=1
    else
        quote "$d"
        if [ $ab = 0 ]; then
            run_argv "$d" "$@"
            rc=$?
        else
            case $name in A-*) subst "$cmd_a" "$q" ;; *) subst "$cmd_b" "$q" ;; esac
            sh -c -- "$s" # '--': a command string that starts with '-' is no option
            rc=$?
        fi
        status="exit status $rc"
    fi
    now
    secs=$(awk -v a="$t0" -v b="$t" 'BEGIN { printf "%.1f", b - a }')
    echo "$me: run $i of $total: $name: $status, $secs s" >&2
    quote "$d"
    if [ "$rc" != 0 ]; then
        failed="$failed $name" nfailed=$((nfailed + 1))
        continue
    fi
    case $name in
    A-*) done_a="$done_a $q" ;;
    B-*) done_b="$done_b $q" ;;
    *) done_run="$done_run $q" ;;
    esac
done
trap - INT TERM

# ---- summary: what failed, and the comparison to run next ---------------------------------
if [ -n "$failed" ]; then
    echo "$me: $nfailed of $total runs failed:$failed (left out of the compare command below)" >&2
else
    echo "$me: all $total runs succeeded" >&2
fi
if [ $ab = 0 ]; then
    if [ -n "$done_run" ]; then
        echo "$me: compare these runs (as BASE or NEW) with another group of runs:" >&2
        echo "  mpibench compare$done_run -- NEW..." >&2
    fi
elif [ -n "$done_a" ] && [ -n "$done_b" ]; then
    echo "$me: compare A (base) with B (new):" >&2
    echo "  mpibench compare$done_a --$done_b" >&2
else
    side=A
    [ -n "$done_a" ] && side=B
    echo "$me: no comparison: every run of $side failed" >&2
fi
[ -z "$failed" ]
