/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU work of Intel IMB 2021.11's overlap benchmarks (IMB-NBC; src_c/IMB_cpu_exploit.c):
 * products of a 10 x 10 float matrix with a vector, as many as last about as long as the
 * process's own t_pure. Its rate is probed once per run (about 5e7 flops); each length then
 * runs max(1, t_pure x products per second) of them per repetition. The driver times them
 * (imb_driver.c, imb_nbc_driver.c); nothing here reads the clock.
 *
 * The product is compiled without optimisation, as Intel's build compiles IMB (src_cpp/Makefile:
 * -O0): a product's time is then set by the store and reload of every element it updates,
 * about 0.2 us here, and below that t_pure a repetition still runs one product - so at short
 * lengths t_CPU is that one product's time, in 2021.11's table as in this one. Optimised, the
 * same loop took 0.09 us and t_CPU there no longer matched (docs/adr/imb-nbc.md). */
#ifndef MB_IMB_NBC_CPU_H
#define MB_IMB_NBC_CPU_H

/* The products in the rate probe: 5e7 flops / (2 x 10 x 10) + 1. */
enum { MB_IMB_NBC_CPU_PROBE = 250001 };

struct mb_imb_nbc_cpu {
    long per_sec; /* products a second, from the probe (an int in 2021.11) */
    double mflops;
    /* The probe's seconds not yet counted in a block's time limit: 2021.11 probes inside the
     * first overlap block (its first IMB_cpu_exploit call), whose clock then includes it.
     * The driver charges that block and sets it to 0. */
    double uncharged_secs;
};

/* reps products. */
void mb_imb_nbc_cpu_work(long reps);

/* The rate from the probe: MB_IMB_NBC_CPU_PROBE products took secs (> 0). */
void mb_imb_nbc_cpu_rate(struct mb_imb_nbc_cpu *c, double secs);

/* The products a repetition runs for a process whose t_pure is t_pure_secs: at least 1. */
long mb_imb_nbc_cpu_reps(const struct mb_imb_nbc_cpu *c, double t_pure_secs);

#endif
