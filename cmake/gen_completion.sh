#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Writes the bash completion of mpibench at build time (docs/adr/install-layout.md): the
# subcommands and tools from `mpibench help`, each suite's options from `mpibench help SUITE`
# (the option rows after "Options:", every spelling of a row: "--check, -check"), and the
# tools' options from their --help. Generated from the binary's own text, so it completes what
# --help lists and nothing else.
#   gen_completion.sh MPIBENCH OUTFILE
set -eu
bin=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
list=$("$here/help_pages.sh" "$bin")
tab=$(printf '\t')

# The option words of one --help text: rows starting "  -", spellings split at ", ", each
# spelling's first word (the value placeholder dropped).
options() {
    awk '/^Options:/ { on = 1; next }
         (on || tool) && /^  +-/ {
             sub(/^ +/, ""); sub(/   .*/, "")
             n = split($0, sp, /, /)
             for (i = 1; i <= n; i++) { split(sp[i], w, /[ =]/); printf "%s ", w[1] }
         }' tool="$1"
}

{
    echo "# bash completion for mpibench, generated from 'mpibench help' at build time."
    echo "# Completes the subcommands, 'mpibench help SUITE' and each suite's options."
    words=""
    suites=""
    echo "_mpibench_options() {"
    echo "    case \$1 in"
    while IFS="$tab" read -r name orig title; do
        words="$words $name"
        if [ "$name" = help ]; then continue; fi
        suites="$suites $name"
        case $name in
        plot | compare) opts=$("$bin" "$name" --help | options 1) ;;
        *) opts=$("$bin" help "$name" | options 0) ;;
        esac
        pattern=$name
        if [ "$orig" != - ]; then pattern="$name | $orig"; fi
        printf "    %s) echo '%s' ;;\n" "$pattern" "${opts% }"
    done <<EOT
$list
EOT
    echo "    esac"
    echo "}"
    cat <<EOT
_mpibench() {
    local cur=\${COMP_WORDS[COMP_CWORD]} suite=\${COMP_WORDS[0]##*/}
    COMPREPLY=()
    if [ "\$suite" = mpibench ]; then
        if [ "\$COMP_CWORD" -eq 1 ]; then
            COMPREPLY=(\$(compgen -W "${words# } --help --version" -- "\$cur"))
            return 0
        fi
        suite=\${COMP_WORDS[1]}
        if [ "\$suite" = help ]; then
            if [ "\$COMP_CWORD" -eq 2 ]; then
                COMPREPLY=(\$(compgen -W "${suites# }" -- "\$cur"))
            fi
            return 0
        fi
    fi
    case \$cur in
    -*) COMPREPLY=(\$(compgen -W "\$(_mpibench_options "\$suite")" -- "\$cur")) ;;
    *) COMPREPLY=(\$(compgen -f -- "\$cur")) ;;
    esac
    return 0
}
complete -F _mpibench mpibench
EOT
} >"$out.tmp"
mv "$out.tmp" "$out"
