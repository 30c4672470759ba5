/* SPDX-License-Identifier: BSD-3-Clause */
/* The commands that read results instead of measuring: `mpibench plot` and `mpibench
 * compare`, and `mpibench help` (a suite's --help text). They run without mpirun and without
 * MPI_Init (main.c dispatches them first). */
#ifndef MB_TOOLS_H
#define MB_TOOLS_H

/* argv[0] is the tool's name. Returns -1 when it names no tool, else the exit status. */
int mb_tool_main(int argc, char **argv);

/* For `mpibench --help`: one line per tool. */
void mb_tools_list(void (*line)(const char *name, const char *title, void *arg), void *arg);

#endif
