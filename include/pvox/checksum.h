/*
 * pvox core: the checksum of a voxel grid, the one `-v` logs ("grid: $g checksum ...")
 * and checkpoints store per grid (README "Checkpoints", pvox/h5.h).
 *
 * Definition: each z-plane's bytes (n² floats as held in memory, x fastest) are hashed
 * with 64-bit FNV-1a, the hash started from the FNV offset basis xor'ed with
 * iz · 0x9E3779B97F4A7C15; the grid's checksum is the sum of its planes' hashes modulo
 * 2^64. A sum of per-plane values does not depend on which rank or thread hashed which
 * plane, so the checksum is the same at any rank and thread count (ARCH-8), and it
 * changes when any voxel bit or any plane's place changes.
 */
#ifndef PVOX_CHECKSUM_H
#define PVOX_CHECKSUM_H

#include "pvox/core.h"

/* The hash of plane iz: `count` floats at p. No MPI, thread-safe. */
uint64_t pv_checksum_plane(const float *p, size_t count, int64_t iz);
/* The sum of the hashes of planes [z0, z1) of an n³ grid, whose slab (z1-z0)·n² floats
 * starts at plane z0. OpenMP threads over planes; no MPI; call outside parallel regions. */
uint64_t pv_checksum_slab(const float *slab, int64_t n, int64_t z0, int64_t z1);
/* Collective: the whole grid's checksum from every rank's slab (the slabs must tile
 * [0, n)); the same value on every rank. PV_EMPI (agreed) if the reduction fails. */
pv_status pv_checksum_grid(pv_ctx *ctx, const float *slab, int64_t n, int64_t z0, int64_t z1,
                           uint64_t *sum);

#endif
