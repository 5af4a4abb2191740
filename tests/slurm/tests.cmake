# SLURM job scripts (jobs/) on a private single-node SLURM cluster that run_slurm.sh starts
# and stops itself (munged + slurmctld + slurmd, state in a temporary directory). Label
# "slurm". Without SLURM/munge installed the test skips (77), or fails when CI=true.
# Debian packages: slurmctld slurmd slurm-client munge libpmix-dev hdf5-tools.
# pv_widen_so (tests/app/tests.cmake: widen_mkdir.c, empty with the sanitizers) is
# preloaded into pvox in case 11, the concurrent steps.
add_test(NAME slurm.jobs
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_slurm.sh $<TARGET_FILE:pvox> ${CMAKE_SOURCE_DIR}
          ${pv_widen_so})
# the jobs fill both cores; one cluster at a time (the script also takes a lock file)
set_tests_properties(slurm.jobs PROPERTIES
  LABELS slurm PROCESSORS 2 RESOURCE_LOCK pvox_slurm SKIP_RETURN_CODE 77 TIMEOUT 420)
