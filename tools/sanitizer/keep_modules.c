/* Linked into every executable of a PV_SANITIZE build (CMakeLists.txt), never into a
 * normal build.
 *
 * Open MPI loads its components (mca_*.so) with dlopen and unloads them in MPI_Finalize,
 * while memory they allocated is still held elsewhere. LeakSanitizer runs at exit, after
 * the unload: it reports thousands of leaks whose stacks end in "<unknown module>", which a
 * suppression cannot name. A dlclose that keeps the library loaded (defined here, in the
 * executable, so it takes precedence over the C library's) leaves every frame nameable and
 * the components' globals reachable; what Open MPI really leaks is then suppressed by
 * library name in lsan.supp. Nothing in pvox unloads a library. */
int dlclose(void *handle);

int dlclose(void *handle)
{
    (void)handle;
    return 0;
}
