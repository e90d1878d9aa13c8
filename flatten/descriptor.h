/* Kernel descriptors: what the code generator decided about how each
   kernel of a nest is launched, written into the nest's package beside
   the kernel sources (codegen/descriptor.c) and read by the runtime,
   which launches by them instead of deciding again from the IR.  One
   line per kernel in the package's kernels section:

     k0 protocol=strided node=segred local-bytes=2048 private-bytes=0
	private-histograms=0 scan-items=0 ticket-tiles=0 min-group=1
	ordered-run=0 status-words=0 stages: k0(nest chunk parts)
	k0_final(n_parts parts-res)

   (on one line).  The stages are those of the protocol (protocols.def)
   spelled out for the kernel: a reader refuses a descriptor whose stages
   or arguments are not what its own table says, so a kernel is never
   launched with arguments it does not take.  */

#ifndef FLAT_DESCRIPTOR_H
#define FLAT_DESCRIPTOR_H

#include "ir.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum flat_protocol
{
#define FLAT_PROTOCOL(ENUM, NAME, NODE, STAGES) ENUM,
#include "protocols.def"
#undef FLAT_PROTOCOL
  FLAT_N_PROTOCOLS
} flat_protocol;

/* Most stages of a protocol.  */
#define FLAT_DESC_MAX_STAGES 5

typedef struct flat_kernel_desc
{
  char name[32];		/* the kernel's: k0 */
  flat_protocol protocol;
  int64_t local_bytes;		/* local memory of a work-group */
  int64_t private_bytes;	/* local arrays of a work-item */
  int private_histograms;	/* mems with a histogram per group */
  int scan_items;		/* scans: iterations of a tile per item */
  int ticket_tiles;		/* single pass: tiles of a ticket */
  int min_group;		/* least items per group, where the device
				   allows */
  int ordered_run;		/* chunked: iterations an item folds at a
				   time */
  int status_words;		/* single pass: 64-bit words per published
				   value */
  int lane_segments;		/* segmented lanes: segments per item of
				   the lanes stage */
} flat_kernel_desc;

/* One stage of a protocol: the suffix of its function's name ("",
   "_final") and its arguments' kinds ("nest chunk parts").  */
typedef struct flat_stage_spec
{
  char suffix[16];
  char args[64];
} flat_stage_spec;

const char *flat_protocol_name (flat_protocol p);
flat_node_kind flat_protocol_node (flat_protocol p);
/* The number of stages of P.  */
int flat_protocol_n_stages (flat_protocol p);
/* The stages of P into STAGES; returns how many.  */
int flat_protocol_stages (flat_protocol p,
			  flat_stage_spec stages[FLAT_DESC_MAX_STAGES]);
/* Whether D's scan is single-pass (decoupled or windowed).  */
int flat_desc_single_pass (const flat_kernel_desc *d);
/* The status words of single-pass scan D on GROUPS groups with TICKETS
   tickets: the ticket counter, a word per group, then the published
   values (codegen.h).  */
int64_t flat_desc_status_total (const flat_kernel_desc *d, int64_t groups,
				int64_t tickets);

/* The descriptors of N kernels as package text, malloc'ed; NULL if memory
   ran out.  */
char *flat_descs_to_string (const flat_kernel_desc *descs, int n);
/* Parse package text into *DESCS (malloc'ed) and *N; -1 with ERR saying
   why for text this Flat does not read (an unknown protocol, stages that
   differ from the protocol's).  */
int flat_descs_parse (const char *text, flat_kernel_desc **descs, int *n,
		      char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_DESCRIPTOR_H */
