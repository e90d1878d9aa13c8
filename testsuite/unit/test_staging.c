/* Unit tests of staged transfers (runtime/staging.c) over a simulated
   copy engine: a queued copy happens only when a wait reaches it, in
   queue order, so a stage buffer that the host reuses before its copy
   has ended, or reads before its copy back has ended, shows up as wrong
   data.  Sizes of one chunk, of several with a short last one, and just
   above and below the staging threshold.  */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <CUnit/CUnit.h>

#include "runtime/staging.h"
#include "unit.h"

/* A queued copy between stage buffer STAGE and OFFSET of the device.  */
typedef struct engine_copy
{
  int to_device, stage;
  size_t offset, bytes;
} engine_copy;

static struct
{
  unsigned char *device;
  engine_copy queue[64];
  int queued, done;		/* copies queued, and run, so far */
  int waits;
} engine;

static flat_stager stager;
static int turn;

static void
run_copy (const engine_copy *c)
{
  unsigned char *stage = stager.stage[c->stage];

  if (c->to_device)
    memcpy (engine.device + c->offset, stage, c->bytes);
  else
    memcpy (stage, engine.device + c->offset, c->bytes);
}

static int
queue_copy (int to_device, size_t offset, int stage, size_t bytes)
{
  CU_ASSERT_FATAL (engine.queued < 64);
  CU_ASSERT (bytes <= FLAT_STAGE_CHUNK);
  engine.queue[engine.queued++] = (engine_copy) { to_device, stage, offset,
						  bytes };
  return 0;
}

static int
queue (void *device, size_t offset, int stage, size_t bytes, int to_device,
       char *err, size_t err_size)
{
  (void) device, (void) err, (void) err_size;
  return queue_copy (to_device, offset, stage, bytes);
}

/* Run the queue up to the last copy of STAGE.  */
static int
wait_stage (int stage, char *err, size_t err_size)
{
  int last = -1;

  (void) err, (void) err_size;
  for (int k = engine.done; k < engine.queued; k++)
    if (engine.queue[k].stage == stage)
      last = k;
  for (; engine.done <= last; engine.done++)
    run_copy (&engine.queue[engine.done]);
  engine.waits++;
  return 0;
}

static void
reset (size_t size)
{
  free (engine.device);
  memset (&engine, 0, sizeof engine);
  engine.device = malloc (size);
  CU_ASSERT_PTR_NOT_NULL_FATAL (engine.device);
  memset (engine.device, 0xee, size);
}

static void
test_round_trip (void)
{
  static const size_t sizes[] = {
    FLAT_STAGE_MIN, FLAT_STAGE_MIN + 1, 5 * FLAT_STAGE_MIN + 3,
    4 * FLAT_STAGE_CHUNK, 4 * FLAT_STAGE_CHUNK + 4097
  };
  char err[64];

  stager = (flat_stager) { { malloc (FLAT_STAGE_CHUNK),
			     malloc (FLAT_STAGE_CHUNK) }, &turn,
			   queue, wait_stage };
  CU_ASSERT_PTR_NOT_NULL_FATAL (stager.stage[0]);
  CU_ASSERT_PTR_NOT_NULL_FATAL (stager.stage[1]);
  /* At the buffer's start, and further in (an update of a region's
     array); the bytes before OFFSET stay as they were.  */
  for (size_t i = 0; i < 2 * (sizeof sizes / sizeof sizes[0]); i++)
    {
      size_t size = sizes[i / 2], offset = i % 2 ? 12345 : 0;
      unsigned char *src = malloc (size), *back = malloc (size);

      CU_ASSERT_PTR_NOT_NULL_FATAL (src);
      CU_ASSERT_PTR_NOT_NULL_FATAL (back);
      for (size_t k = 0; k < size; k++)
	src[k] = (unsigned char) (k * 2654435761u >> 13);
      reset (offset + size);
      CU_ASSERT_EQUAL (flat_staged_write (&stager, engine.device, offset,
					  src, size, 1, err, sizeof err), 0);
      /* Every copy has ended when the write returns.  */
      CU_ASSERT_EQUAL (engine.done, engine.queued);
      CU_ASSERT (engine.queued > 1 || size <= 4 * FLAT_STAGE_MIN);
      CU_ASSERT_EQUAL (memcmp (engine.device + offset, src, size), 0);
      for (size_t k = 0; k < offset; k++)
	CU_ASSERT_EQUAL_FATAL (engine.device[k], 0xee);
      memset (back, 0, size);
      engine.queued = engine.done = 0;
      CU_ASSERT_EQUAL (flat_staged_read (&stager, engine.device, offset,
					 back, size, err, sizeof err), 0);
      CU_ASSERT_EQUAL (engine.done, engine.queued);
      CU_ASSERT_EQUAL (memcmp (back, src, size), 0);
      free (back);
      free (src);
    }
  free (engine.device);
  engine.device = NULL;
  free (stager.stage[0]);
  free (stager.stage[1]);
}

/* Writes that do not drain, back to back into one device buffer as a
   nest's copy-ins are: each returns with copies still queued, the next
   one's chunks wait for their buffer's last copy, and a read after them
   finds every byte.  */
static void
test_queued_writes (void)
{
  static const size_t sizes[] = {
    5 * FLAT_STAGE_MIN + 3, FLAT_STAGE_MIN + 1, 4 * FLAT_STAGE_CHUNK + 4097
  };
  enum { N = sizeof sizes / sizeof sizes[0] };
  size_t at[N + 1] = { 0 };
  unsigned char *src[N], *back;
  char err[64];
  int i;

  stager = (flat_stager) { { malloc (FLAT_STAGE_CHUNK),
			     malloc (FLAT_STAGE_CHUNK) }, &turn,
			   queue, wait_stage };
  CU_ASSERT_PTR_NOT_NULL_FATAL (stager.stage[0]);
  CU_ASSERT_PTR_NOT_NULL_FATAL (stager.stage[1]);
  for (i = 0; i < N; i++)
    at[i + 1] = at[i] + sizes[i];
  reset (at[N]);
  for (i = 0; i < N; i++)
    {
      src[i] = malloc (sizes[i]);
      CU_ASSERT_PTR_NOT_NULL_FATAL (src[i]);
      for (size_t k = 0; k < sizes[i]; k++)
	src[i][k] = (unsigned char) ((k + 77 * (size_t) i) * 2654435761u
				     >> 11);
      CU_ASSERT_EQUAL (flat_staged_write (&stager, engine.device, at[i],
					  src[i], sizes[i], 0, err,
					  sizeof err), 0);
      CU_ASSERT (engine.done < engine.queued);
      /* SRC is free on return.  */
      memset (src[i] + sizes[i] / 2, 0, sizes[i] - sizes[i] / 2);
    }
  back = malloc (at[N]);
  CU_ASSERT_PTR_NOT_NULL_FATAL (back);
  for (i = 0; i < N; i++)
    {
      CU_ASSERT_EQUAL (flat_staged_read (&stager, engine.device, at[i],
					 back + at[i], sizes[i], err,
					 sizeof err), 0);
      CU_ASSERT_EQUAL (engine.done, engine.queued);
      for (size_t k = 0; k < sizes[i]; k++)
	if (back[at[i] + k] != (k < sizes[i] / 2 ? src[i][k]
				: (unsigned char) ((k + 77 * (size_t) i)
						   * 2654435761u >> 11)))
	  {
	    CU_FAIL ("a queued write lost bytes");
	    break;
	  }
      free (src[i]);
    }
  free (back);
  free (engine.device);
  engine.device = NULL;
  free (stager.stage[0]);
  free (stager.stage[1]);
}

/* A backend without a stager, or whose stager declines, copies direct;
   a stager that fails fails the transfer.  */
static int direct_writes, direct_reads, stager_fails;

static int
direct_write (void *buffer, size_t offset, const void *src, size_t size,
	      char *err, size_t err_size)
{
  (void) err, (void) err_size;
  memcpy ((char *) buffer + offset, src, size);
  direct_writes++;
  return 0;
}

static int
direct_read (void *buffer, size_t offset, void *dst, size_t size, char *err,
	     size_t err_size)
{
  (void) err, (void) err_size;
  memcpy (dst, (char *) buffer + offset, size);
  direct_reads++;
  return 0;
}

static int stager_calls;

static const flat_stager *
declining (int *failed, char *err, size_t err_size)
{
  (void) err, (void) err_size;
  stager_calls++;
  *failed = stager_fails;
  return NULL;
}

static void
test_direct (void)
{
  flat_backend b = { .write = direct_write, .read = direct_read };
  char err[64], buf[12] = "", out[8] = "";
  char *big = calloc (FLAT_STAGE_MIN, 1), *big_out = malloc (FLAT_STAGE_MIN);

  CU_ASSERT_PTR_NOT_NULL_FATAL (big);
  CU_ASSERT_PTR_NOT_NULL_FATAL (big_out);
  CU_ASSERT_EQUAL (flat_transfer_write (&b, buf, 0, "abcdefg", 8, err,
					sizeof err), 0);
  CU_ASSERT_EQUAL (flat_transfer_read (&b, buf, 0, out, 8, err, sizeof err),
		   0);
  CU_ASSERT_STRING_EQUAL (out, "abcdefg");
  CU_ASSERT_EQUAL (flat_transfer_write (&b, buf, 7, "xyz", 4, err,
					sizeof err), 0);
  CU_ASSERT_EQUAL (flat_transfer_read (&b, buf, 6, out, 5, err, sizeof err),
		   0);
  CU_ASSERT_STRING_EQUAL (out, "gxyz");
  /* A small transfer never asks the stager; a large one does, and goes
     direct where it declines.  */
  b.stager = declining;
  CU_ASSERT_EQUAL (flat_transfer_write (&b, buf, 0, "ABCDEFG", 8, err,
					sizeof err), 0);
  CU_ASSERT_EQUAL (stager_calls, 0);
  CU_ASSERT_EQUAL (flat_transfer_write (&b, big_out, 0, big, FLAT_STAGE_MIN,
					err, sizeof err), 0);
  CU_ASSERT_EQUAL (stager_calls, 1);
  CU_ASSERT_EQUAL (direct_writes, 4);
  stager_fails = 1;
  CU_ASSERT_EQUAL (flat_transfer_read (&b, big_out, 0, big, FLAT_STAGE_MIN,
				       err, sizeof err), -1);
  CU_ASSERT_EQUAL (direct_reads, 2);
  stager_fails = 0;
  free (big);
  free (big_out);
}

void
flat_test_register_staging (void)
{
  CU_pSuite s = CU_add_suite ("staging", NULL, NULL);
  CU_add_test (s, "staged round trips, copies in flight simulated",
	       test_round_trip);
  CU_add_test (s, "queued writes, copies in flight simulated",
	       test_queued_writes);
  CU_add_test (s, "direct copies where there is no stager", test_direct);
}
