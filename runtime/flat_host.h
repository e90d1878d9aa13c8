/* The part of libflat's interface that the parallel host version of a
   nest calls (SPEC section 3, Note [Parallel host version] in
   plugin/host_parallel.cc); flat.h includes it, and so does the plugin,
   for FLAT_HOST_CHUNKS and FLAT_HOST_PARTIAL_ALIGN.  */

#ifndef FLAT_HOST_H
#define FLAT_HOST_H

#ifdef __cplusplus
extern "C" {
#endif

/* The parallel host version (SPEC section 3, FLAT_HOST_THREADS): where
   flat_run returns nonzero, the plugin's code runs a map, reduce or scan
   nest's outer loop on a team of threads, as

     partials = flat_host_partials (chunks, bytes);   (array sections)
     width = flat_host_threads (&__flat_state_7, n);  (1: no partials)
     flat_host_loop_init (loop, n, width, reduction);
     parallel region on WIDTH threads (flat_host_parallel, or libgomp's
     GOMP_parallel in a program built with -fopenmp), each thread doing
       while ((c = flat_host_next (loop, &first, &end)) >= 0)
         iterations FIRST..END-1 of the loop, partial results in part[c]
     the partials combined in the order of c < flat_host_chunks (n)
     (a scan: twice, the chunks' totals first, then the body from each
     chunk's prefix)
     free (partials);
     flat_host_done ();

   with N the loop's trip count and LOOP an array of
   FLAT_HOST_LOOP_WORDS shared by the threads.  A loop with reductions
   (REDUCTION nonzero) is claimed by chunks that depend on N alone, never
   on the width, and its reductions give the same bits on any number of
   threads; a map's iterations are claimed in ranges.  */

/* A reduction's chunks: at most FLAT_HOST_CHUNKS, of at least
   FLAT_HOST_CHUNK_LEAST iterations where N allows.  */
#define FLAT_HOST_CHUNKS 64
#define FLAT_HOST_CHUNK_LEAST 1024

/* A loop's array-section reductions keep a partial array per chunk
   (Note [Section partials] in plugin/host_sections.cc), each rounded up
   to FLAT_HOST_PARTIAL_ALIGN bytes, a cache line, so that two chunks
   never write one line.  All of a loop's take at most
   FLAT_HOST_PARTIALS_MAX bytes beside the program's memory: 64 chunks
   of a histogram of 2^18 ints (or 2^17 doubles).  Larger sections are
   updated in place, on one thread.  */
#define FLAT_HOST_PARTIAL_ALIGN 64
#define FLAT_HOST_PARTIALS_MAX (64LL << 20)

/* Threads that own a block of a loop to start from; more steal only.  */
#define FLAT_HOST_OWNERS 64
#define FLAT_HOST_LOOP_WORDS (5 + FLAT_HOST_OWNERS)

/* The number of chunks of a loop of N iterations with reductions: 0 for
   N <= 0.  */
long long flat_host_chunks (long long n);

/* Set up LOOP (FLAT_HOST_LOOP_WORDS) for N iterations run by up to WIDTH
   threads, by chunks if REDUCTION.  */
void flat_host_loop_init (long long *loop, long long n, unsigned width,
			  int reduction);

/* Claim the calling thread's next iterations of LOOP: *FIRST to *END - 1
   (counted from 0).  Returns the chunk's index for a loop of reductions,
   a value >= 0 otherwise, or -1 when all are claimed.  Safe from any
   number of threads.  */
long long flat_host_next (long long *loop, long long *first,
			  long long *end);

/* Memory for the partials of CHUNKS chunks of BYTES each (a multiple of
   FLAT_HOST_PARTIAL_ALIGN), aligned to FLAT_HOST_PARTIAL_ALIGN; NULL
   where they would take more than FLAT_HOST_PARTIALS_MAX bytes or the
   memory cannot be had.  The caller frees it.  */
void *flat_host_partials (long long chunks, long long bytes);

/* How many threads the nest of STATE (flat_run's) runs its N outer
   iterations on: FLAT_HOST_THREADS, by default up to the CPUs the
   process may use where the nest's measured times say more threads pay
   (Note [Host width] in runtime/host_parallel.c); at most N.  */
unsigned flat_host_threads (void **state, long long n);

/* The end of the run that flat_host_threads began on this thread: its
   time tells the nest which width, and whether the host or the device,
   is faster (Note [Host width] in runtime/host_parallel.c).  */
void flat_host_done (void);

/* Run FN (DATA) on the caller and on those of N_THREADS - 1 other
   threads that come before the caller's FN returns, and return when all
   of them have returned (FLAGS is ignored): GOMP_parallel's signature,
   for loops that let any thread take a block its owner has not begun
   (Note [Joining a region] in runtime/host_team.c).  A call made while
   another is running runs FN on its caller alone.  */
void flat_host_parallel (void (*fn) (void *), void *data, unsigned n_threads,
			 unsigned flags);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_HOST_H */
