# SPDX-License-Identifier: BSD-3-Clause
# Spack recipe for mpibench (docs/adr/install-layout.md). Until the project has a public home
# with release tarballs, build a checkout: `spack repo add packaging/spack`, then in an
# environment `spack develop --path $PWD mpibench@=main && spack add mpibench@=main &&
# spack install`.
from spack.package import *


class Mpibench(CMakePackage):
    """IMB 3.1 (IMB-MPI1, IMB-EXT, IMB-IO), b_eff, b_eff_io and Presta 1.2 re-implemented in
    one MPI program, with `mpibench run`, a few-minute characterisation of a machine, and tools
    to plot and compare results."""

    variant(
        "classic_names_in_bin",
        default=False,
        description="Also install the original names (IMB-MPI1, com, rma, ...) and their man "
        "pages in bin, where they shadow other programs of those names; they are always in "
        "libexec/mpibench/classic",
    )
    variant("man", default=True, description="Man pages generated from --help with help2man")

    depends_on("c", type="build")
    depends_on("cmake@3.18:", type="build")
    depends_on("pkgconfig", type="build")
    depends_on("help2man", type="build", when="+man")
    depends_on("mpi@3:")
    depends_on("jansson")
    depends_on("hwloc@2.1:")
    # `mpibench plot` and the main job's plots call gnuplot when it is on PATH, else skip them.
    depends_on("python@3:", type="test")

    def cmake_args(self):
        args = [
            self.define_from_variant("MB_INSTALL_CLASSIC_NAMES_IN_BIN", "classic_names_in_bin"),
            self.define("MB_TESTS", self.run_tests),
            self.define("MPI_C_COMPILER", self.spec["mpi"].mpicc),
        ]
        if self.spec.satisfies("~man"):
            args.append(self.define("MB_HELP2MAN", "MB_HELP2MAN-NOTFOUND"))
        return args

    def setup_run_environment(self, env):
        # `spack load mpibench` adds bin (mpibench); the original names stay off PATH unless
        # asked for, as with any other install (prepend prefix.libexec.mpibench.classic).
        env.set("MPIBENCH_CLASSIC_DIR", join_path(self.prefix.libexec, "mpibench", "classic"))
