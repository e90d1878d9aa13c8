/* Timing a CUDA reference's resident variant by the device's clock, as
   Flat's FLAT_PROFILE times its kernels: CUDA events recorded before and
   after each call, the first one behind a kernel that keeps the device
   busy while the call queues its work, so that neither side's figure
   has the launch's and the synchronisation's latencies (5 to 10 us on
   an H200) in it.  */

#ifndef BENCH_DEVICE_TIME_H
#define BENCH_DEVICE_TIME_H

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

/* bench_time of REGION (DATA), whose calls synchronise, with the time of
   each call after the first from CUDA events around it on the legacy
   stream, where the call queues its work.  */
int bench_time_device (const bench_run *run, bench_region region,
		       void *data);

/* The seconds of one call of REGION (DATA), whose call synchronises, by
   CUDA events around it on the legacy stream.  */
double bench_device_seconds (bench_region region, void *data);

#ifdef __cplusplus
}
#endif

#endif /* BENCH_DEVICE_TIME_H */
