#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Builds the original programs that bench/side_by_side.py runs mpibench against, from their
# public sources, OUTSIDE this repository: IMB 3.1 (IMB-MPI1, IMB-EXT, IMB-IO), Intel IMB
# 2021.11 (IMB-MPI1, IMB-EXT, IMB-IO, IMB-NBC, IMB-P2P, and IMB-MPI4 where the MPI has
# MPI-4's persistent collectives), b_eff 3.6, b_eff_io 2.1 and Presta 1.2 (com, laten,
# rma, allred, globalop), once per MPI (Debian's mpicc.openmpi and mpicc.mpich wrappers).
#
# Usage: bench/originals/build.sh [-s SRCROOT] [-o OUTDIR] [-m openmpi,mpich] [-b MIB,...] [-a N]
#   -s  where the sources are (default /work/peers/src when present, else
#       $HOME/mpibench-originals/src), laid out as
#         SRCROOT/imb31/src/IMB.c              IMB 3.1   (sandialabs/cbench, opensource/IMB)
#         SRCROOT/imb2021/src_cpp/Makefile     IMB 2021.11 (intel/mpi-benchmarks)
#         SRCROOT/beff36/b_eff.c               b_eff 3.6 (xhuanggit/b_eff)
#         SRCROOT/beffio21/b_eff_io-2.1/b_eff_io.c   b_eff_io 2.1 (yinyanlong/profiling_parallel_io)
#         SRCROOT/presta12/com.c.orig          Presta 1.2 (uswick/presta_HMPI)
#       A source tree that is absent is skipped, with the commands that fetch it.
#   -o  where the programs go (default /work/peers/build when present, else
#       $HOME/mpibench-originals): OUTDIR/<original>-<mpi>/, e.g. OUTDIR/imb31-openmpi/IMB-MPI1.
#   -m  which MPIs (default: those whose mpicc wrapper is installed).
#   -b  b_eff 3.6's memory per process in MiB, fixed when it is compiled (L_max = memory /
#       128): binaries b_eff-M<MIB> and b_eff-M<MIB>-test (3.6's -D TEST) per value (default
#       128,1024; side_by_side.py gives mpibench the same --memory).
#   -a  builds IMB 2021.11 only, with every function placed on an N-byte boundary
#       (-falign-functions=N added to its flags; nothing else changes): the same program with
#       its code at other addresses, for side_by_side.py --relinked (give it another -o).
#       Built at -O0, its short loops run at a speed that depends on where they lie.
#
# The sources are copied into OUTDIR and built there; the only edits are scripted ones on the
# copies, each explained below. Nothing of the originals enters this repository.
set -eu

SRCROOT=
OUT=
MPIS=
BEFF_MEM=128,1024
ALIGN=
while getopts s:o:m:b:a:h opt; do
    case $opt in
    s) SRCROOT=$OPTARG ;;
    o) OUT=$OPTARG ;;
    m) MPIS=$OPTARG ;;
    b) BEFF_MEM=$OPTARG ;;
    a) ALIGN=$OPTARG ;;
    *) sed -n '2,29p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
case $ALIGN in
'') ;;
*[!0-9]* | 0*) echo "build.sh: -a $ALIGN: not a power of two" >&2; exit 2 ;;
*) if [ $((ALIGN & (ALIGN - 1))) -ne 0 ]; then
       echo "build.sh: -a $ALIGN: not a power of two" >&2; exit 2
   fi ;;
esac
if [ -z "$SRCROOT" ]; then
    if [ -d /work/peers/src ]; then SRCROOT=/work/peers/src; else SRCROOT=$HOME/mpibench-originals/src; fi
fi
if [ -z "$OUT" ]; then
    if [ -d /work/peers/build ]; then OUT=/work/peers/build; else OUT=$HOME/mpibench-originals; fi
fi
if [ -z "$MPIS" ]; then
    for m in openmpi mpich; do
        if command -v "mpicc.$m" >/dev/null 2>&1; then MPIS="$MPIS${MPIS:+,}$m"; fi
    done
fi
[ -n "$MPIS" ] || { echo "build.sh: neither mpicc.openmpi nor mpicc.mpich is installed" >&2; exit 2; }
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
LOG="$OUT/build.log"
: >"$LOG"
echo "sources: $SRCROOT; programs: $OUT/<original>-<mpi>/; compiler output: $LOG"

missing() { # name, then the lines that fetch it
    name=$1
    shift
    echo "SKIPPED $name: its source is not in $SRCROOT. Fetch it with:"
    for line in "$@"; do echo "    $line"; done
}

quiet() { # runs a command, its output to the log; on failure shows the log's tail
    if ! "$@" >>"$LOG" 2>&1; then
        echo "FAILED: $*" >&2
        tail -n 30 "$LOG" >&2
        return 1
    fi
}

fresh_copy() { # source dir, destination dir
    rm -rf "$2"
    mkdir -p "$2"
    cp -R "$1/." "$2/"
}

build_imb31() { # mpi
    dir=$OUT/imb31-$1
    fresh_copy "$SRCROOT/imb31/src" "$dir/src"
    cd "$dir/src"
    # The 3.1 files have CRLF line ends; the edits below are line based.
    for f in *.c *.h Makefile.base; do sed -i 's/\r$//' "$f"; done
    # MPI-3 removed MPI_LB/MPI_UB and MPI_Type_struct (Open MPI 4.1 no longer declares them).
    # IMB_init_transfer.c builds IMB-IO's file view as {LB at 0, the rank's block, UB at
    # size}: the same type is the block alone resized to lower bound 0 and extent size.
    sed -i -e 's/types\[0\] = MPI_LB;/types[0] = MPI_BYTE;/' \
        -e 's/types\[2\] = MPI_UB;/types[2] = MPI_BYTE;/' \
        -e 's/ierr=MPI_Type_struct(3,bllen,displ,types,&c_info->view);/{ MPI_Datatype blk; ierr=MPI_Type_create_struct(1,bllen+1,displ+1,types+1,\&blk); ierr=MPI_Type_create_resized(blk,0,size,\&c_info->view); MPI_Type_free(\&blk); }/' \
        IMB_init_transfer.c
    grep -q MPI_Type_create_resized IMB_init_transfer.c || { echo "imb31: the MPI_LB/MPI_UB edit did not apply" >&2; return 1; }
    # The MPI-1 error handler calls, renamed by MPI-2 with the same arguments.
    sed -i -e 's/MPI_Errhandler_create(/MPI_Comm_create_errhandler(/' \
        -e 's/MPI_Errhandler_set(/MPI_Comm_set_errhandler(/' IMB_err_handler.c
    # make_mpich's flags (-O3); Makefile.base builds one suite at a time (-DMPI1, -DEXT,
    # -DMPIIO), so each target starts from clean objects.
    for t in IMB-MPI1 IMB-EXT IMB-IO; do
        rm -f ./*.o exe_io exe_ext exe_mpi1
        quiet make -f Makefile.base "$t" CC="mpicc.$1" CLINKER="mpicc.$1" OPTFLAGS=-O3 \
            MPI_INCLUDE= LIB_PATH= LIBS= LDFLAGS= CPPFLAGS= || return 1
        mv "$t" "$dir/$t"
    done
    echo "built IMB 3.1 ($1): $dir/IMB-MPI1 IMB-EXT IMB-IO"
}

build_imb2021() { # mpi
    dir=$OUT/imb2021-$1
    fresh_copy "$SRCROOT/imb2021" "$dir/src"
    cd "$dir/src"
    # Its Makefiles add -Werror (src_cpp: -g -O0 -Wall[ -Wextra] -Werror; src_c/P2P: -O3 -Wall
    # -Wextra -Werror), which Open MPI 4.1's C++ header trips (-Wcast-function-type in
    # ompi/mpi/cxx/op_inln.h): dropped in the copy; the rest of the flags stay as released.
    sed -i 's/ -Werror//' src_cpp/Makefile src_c/P2P/Makefile
    built=
    for t in MPI1 EXT IO NBC MPI4 P2P; do
        if [ $t = P2P ]; then sub=src_c/P2P; else sub=src_cpp; fi
        if [ $t = MPI4 ] && [ "$1" = openmpi ]; then
            # MPI_Bcast_init and the other persistent collectives are MPI 4.0; Open MPI 4.1
            # has none of them (the link fails on every MPI_*_init).
            echo "IMB 2021.11 ($1): IMB-MPI4 not built: the library has no MPI-4 persistent collectives"
            continue
        fi
        # -a: the Makefiles append their own flags to these (override CFLAGS += ...).
        quiet make -C $sub -f Makefile TARGET=$t CC="mpicc.$1" CXX="mpicxx.$1" \
            ${ALIGN:+CFLAGS=-falign-functions=$ALIGN CXXFLAGS=-falign-functions=$ALIGN} || return 1
        cp "$sub/IMB-$t" "$dir/IMB-$t"
        built="$built IMB-$t"
    done
    echo "built IMB 2021.11 ($1)${ALIGN:+ with -falign-functions=$ALIGN}: $dir/{$built }"
}

build_beff36() { # mpi
    dir=$OUT/beff36-$1
    mkdir -p "$dir"
    old_ifs=$IFS
    IFS=,
    for mem in $BEFF_MEM; do
        quiet "mpicc.$1" -O2 -DMEMORY_PER_PROCESSOR="$mem" -o "$dir/b_eff-M$mem" \
            "$SRCROOT/beff36/b_eff.c" -lm || return 1
        # 3.6's own -D TEST (0.005 s per loop, 1 s for the two largest lengths, 2 random
        # rings): the short run side_by_side.py --quick compares with mpibench's
        # --profile 3.6-test --random 2.
        quiet "mpicc.$1" -O2 -DTEST -DMEMORY_PER_PROCESSOR="$mem" -o "$dir/b_eff-M$mem-test" \
            "$SRCROOT/beff36/b_eff.c" -lm || return 1
    done
    IFS=$old_ifs
    echo "built b_eff 3.6 ($1): $dir/b_eff-M{$BEFF_MEM}[-test]"
}

build_beffio21() { # mpi
    dir=$OUT/beffio21-$1
    mkdir -p "$dir"
    # It compiles unmodified.
    quiet "mpicc.$1" -O2 -o "$dir/b_eff_io" "$SRCROOT/beffio21/b_eff_io-2.1/b_eff_io.c" -lm || return 1
    echo "built b_eff_io 2.1 ($1): $dir/b_eff_io"
}

build_presta12() { # mpi
    dir=$OUT/presta12-$1
    rm -rf "$dir"
    mkdir -p "$dir/src"
    s=$SRCROOT/presta12
    # The repository is an HMPI fork; Presta 1.2's own files are com.c.orig, util.c.orig and
    # the unchanged laten.c, rma.c, allred.c, globalop.c. com and laten include <hmpi.h>
    # without using anything from it: a one-line hmpi.h that includes mpi.h stands in.
    cp "$s/com.c.orig" "$dir/src/com.c"
    cp "$s/util.c.orig" "$dir/src/util.c"
    cp "$s/laten.c" "$s/rma.c" "$s/allred.c" "$s/globalop.c" "$s/util.h" "$dir/src/"
    echo '#include <mpi.h>' >"$dir/src/hmpi.h"
    # rma.c switches MPI_COMM_WORLD's error handler with the MPI-1 name that MPI-3 removed
    # (Open MPI 4.1 rejects it); MPI-2's name takes the same arguments.
    sed -i 's/MPI_Errhandler_set(/MPI_Comm_set_errhandler(/' "$dir/src/rma.c"
    cd "$dir/src"
    cc="mpicc.$1"
    quiet "$cc" -O2 -I. -c util.c || return 1
    for p in com laten rma; do
        quiet "$cc" -O2 -I. -o "$dir/$p" "$p.c" util.o -lm || return 1
    done
    # allred.c's Op mean is (op loop - compute loop) / operations, both loops calling doComp
    # and ignoring its result. At -O2 and -O3 GCC 12 inlines doComp into the compute loop only
    # (getLoopSamples) and, the result being unused there, deletes its multiply loop, while
    # the op loop (getOpSamples) still calls it: the printed Op mean then adds one compute
    # phase to each Allreduce (2-4x on a 2-core machine). -fno-inline keeps both calls, so
    # the binary times what the source says (docs/adr/peer-presta-allred-build.md).
    quiet "$cc" -O2 -fno-inline -I. -o "$dir/allred" allred.c util.o -lm || return 1
    quiet "$cc" -O2 -o "$dir/globalop" globalop.c -lm || return 1
    # globalop.c prints its loop times in seconds with two decimals (%7.2f; the work loop
    # %7.4f): on 2 processes most loops take 0.01-0.05 s, so its figures differ by whole
    # fifths. globalop-digits is the same source with five decimals in those formats (only the
    # printing changes), for side_by_side.py's ratios.
    sed 's/%7\.[24]f/%9.5f/g' globalop.c >globalop_digits.c
    quiet "$cc" -O2 -o "$dir/globalop-digits" globalop_digits.c -lm || return 1
    echo "built Presta 1.2 ($1): $dir/com laten rma allred globalop globalop-digits"
}

status=0
old_ifs=$IFS
IFS=,
# shellcheck disable=SC2086 # split on the commas of -m
set -- $MPIS
IFS=$old_ifs
for mpi in "$@"; do
    command -v "mpicc.$mpi" >/dev/null 2>&1 || { echo "SKIPPED $mpi: no mpicc.$mpi"; continue; }
    if [ -n "$ALIGN" ]; then
        if [ -f "$SRCROOT/imb2021/src_cpp/Makefile" ]; then (build_imb2021 "$mpi") || status=1; fi
        continue
    fi
    if [ -f "$SRCROOT/imb31/src/IMB.c" ]; then
        (build_imb31 "$mpi") || status=1
    else
        missing "IMB 3.1" "git clone https://github.com/sandialabs/cbench /tmp/cbench" \
            "git -C /tmp/cbench checkout 0dcb02b" "cp -R /tmp/cbench/opensource/IMB $SRCROOT/imb31"
    fi
    if [ -f "$SRCROOT/imb2021/src_cpp/Makefile" ]; then
        (build_imb2021 "$mpi") || status=1
    else
        missing "IMB 2021.11" \
            "git clone --depth 1 --branch IMB-v2021.11 https://github.com/intel/mpi-benchmarks $SRCROOT/imb2021"
    fi
    if [ -f "$SRCROOT/beff36/b_eff.c" ]; then
        (build_beff36 "$mpi") || status=1
    else
        missing "b_eff 3.6" "git clone https://github.com/xhuanggit/b_eff /tmp/b_eff" \
            "git -C /tmp/b_eff checkout 439c36a" "mkdir -p $SRCROOT/beff36 && cp /tmp/b_eff/b_eff.c $SRCROOT/beff36/"
    fi
    if [ -f "$SRCROOT/beffio21/b_eff_io-2.1/b_eff_io.c" ]; then
        (build_beffio21 "$mpi") || status=1
    else
        missing "b_eff_io 2.1" \
            "git clone https://github.com/yinyanlong/profiling_parallel_io /tmp/ppio" \
            "mkdir -p $SRCROOT/beffio21 && cp -R /tmp/ppio/b_eff_io-2.1 $SRCROOT/beffio21/"
    fi
    if [ -f "$SRCROOT/presta12/com.c.orig" ]; then
        (build_presta12 "$mpi") || status=1
    else
        missing "Presta 1.2" "git clone https://github.com/uswick/presta_HMPI $SRCROOT/presta12"
    fi
done
exit $status
