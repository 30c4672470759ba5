/* SPDX-License-Identifier: BSD-3-Clause */
/* The CPU_Exploit calibration (imb_cpu.c) on made-up times: IMB 3.1's procedure by default (one
 * rate probe of 2501 products, one timed call; IMB 3.1 IMB_cpu_exploit.c), the best-of rule
 * under -t_cpu_rule best. */
#include "imb/imb_cpu.h"
#include "unit.h"

/* A fake clock: every product takes 1/65536 s (exact in binary), times the slowdown of that
 * call (a preemption; 0 = none, negative = a call the clock did not see); the products of
 * every call are recorded. */
struct fake {
    double slow[64];
    long reps[64];
    int calls;
};

static double fake_timer(void *arg, struct mb_imb_cpu *c, long reps)
{
    struct fake *f = arg;
    const double w = f->calls < 64 ? f->slow[f->calls] : 0.0;
    const double s = w > 0 ? w : w < 0 ? 0.0 : 1.0;

    (void)c;
    if (f->calls < 64)
        f->reps[f->calls] = reps;
    f->calls++;
    return s * (double)reps / 65536.0;
}

static void run(struct mb_imb_cpu *c, struct fake *f, double target, enum mb_imb_cpu_rule rule)
{
    f->calls = 0;
    mb_imb_cpu_calibrate_by(c, target, rule, fake_timer, f);
}

int main(void)
{
    struct mb_imb_cpu c = {0};

    /* The program: the rate probe (2501 products), then one call of target x products per
     * second (65536 / s: 655 for 0.01 s), whose time is t_CPU. */
    {
        struct fake f = {.calls = 0};
        run(&c, &f, 0.01, MB_IMB_CPU_PROGRAM);
        EXPECT_EQ_LL(c.probes, 2);
        EXPECT_EQ_LL(f.calls, 2);
        EXPECT_EQ_LL(f.reps[0], 2501);
        EXPECT_EQ_LL(f.reps[1], 655);
        EXPECT_EQ_LL(c.reps, 655);
        EXPECT_EQ_LL((long long)(c.t_cpu_usec * 1000 + 0.5), 9994507LL); /* 655/65536 s */
        EXPECT_EQ_LL((long long)(c.mflops * 1000 + 0.5), 1310720LL);     /* 65536 x 2e4 flops */
    }
    /* A preempted rate probe (twice as long) halves the call, as in IMB 3.1: the one probe
     * decides. */
    {
        struct fake f = {.slow = {2.0}};
        run(&c, &f, 0.01, MB_IMB_CPU_PROGRAM);
        EXPECT_EQ_LL(c.probes, 2);
        EXPECT_EQ_LL(c.reps, 327);
        EXPECT_EQ_LL((long long)(c.t_cpu_usec * 1000 + 0.5), 4989624LL); /* 327/65536 s */
    }
    /* A preempted t_CPU call is printed as it was timed: one call, no second try. */
    {
        struct fake f = {.slow = {1.0, 3.0}};
        run(&c, &f, 0.01, MB_IMB_CPU_PROGRAM);
        EXPECT_EQ_LL(c.probes, 2);
        EXPECT_EQ_LL(c.reps, 655);
        EXPECT_EQ_LL((long long)(c.t_cpu_usec * 1000 + 0.5), 29983521LL);
    }
    /* A probe the clock did not see (0 s) is repeated with 4 times the products. */
    {
        struct fake f = {.slow = {-1.0}};
        run(&c, &f, 0.01, MB_IMB_CPU_PROGRAM);
        EXPECT_EQ_LL(c.probes, 3);
        EXPECT_EQ_LL(f.reps[1], 4 * 2501);
        EXPECT_EQ_LL(c.reps, 655);
    }
    /* Long targets: still one call (IMB 3.1 has no other case). */
    {
        struct fake f = {.calls = 0};
        run(&c, &f, 1.0, MB_IMB_CPU_PROGRAM);
        EXPECT_EQ_LL(c.probes, 2);
        EXPECT_EQ_LL(c.reps, 65536);
    }
    /* -t_cpu_rule best: the whole probe, 32 pieces of it, then 5 calls for 0.01 s (1 + as
     * many as fit 0.04 s); the preempted probe no longer decides, the fastest call is t_CPU. */
    {
        struct fake f = {.calls = 0};
        f.slow[0] = 2.0;
        f.slow[33] = 3.0;
        run(&c, &f, 0.01, MB_IMB_CPU_BEST);
        EXPECT_EQ_LL(c.probes, 38);
        EXPECT_EQ_LL(f.reps[1], 2501 / 32);
        EXPECT_EQ_LL(c.reps, 655);
        EXPECT_EQ_LL((long long)(c.t_cpu_usec * 1000 + 0.5), 9994507LL);
    }
    {
        struct fake f = {.calls = 0};
        run(&c, &f, 0.05, MB_IMB_CPU_BEST);
        EXPECT_EQ_LL(c.probes, 1 + 32 + 1);
    }
    return unit_report("test_imb_cpu");
}
