/* Nest packages: what the plugin embeds for each lifted nest and libflat
   reads back at run time (and flat-tune reads from a binary's ELF section).
   codegen/package_build.c decides what goes in; this layout is the
   contract between the two sides.

   A package is one self-contained, position-independent byte blob, so it
   can live in read-only data without relocations:

     offset 0   char     magic[8]      "FLATPKG" and a NUL
            8   uint32   version       FLAT_PACKAGE_VERSION
           12   uint32   size          whole blob in bytes, multiple of 8
           16   uint32   n_sections
           20   uint32   reserved      0
           24   n_sections x { uint32 kind, offset, length, reserved }
           ..   section bytes; each section is a NUL-terminated string
                (length counts the NUL), offsets from the blob's start

   The header and the section table keep this layout in every version,
   so that a reader can name the loop of a package it cannot run; what
   the sections hold and mean is what the version tells.

   Integers are in the byte order of the machine (a package never leaves
   the binary it was compiled into).  Blobs are placed one after another in
   the ELF section FLAT_PACKAGE_ELF_SECTION, each aligned to 8 bytes, so a
   reader walks the section by size.  */

#ifndef FLAT_PACKAGE_H
#define FLAT_PACKAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FLAT_PACKAGE_MAGIC "FLATPKG"
/* Raised with every change of what a package means to libflat (the IR
   text, the kernels' arguments, the launch protocols), so that an object
   built by another plugin falls back to the host instead of running
   kernels wrongly; testsuite/unit/test_package.c fails when the
   format changes and this does not.  2: a level-GROUP segmap takes
   flat_base.  3: kernel descriptors and OpenCL build options in the
   package.  4: the irregular protocol, four stages.  5: the
   partitioned protocol.  6: the irregular-map protocol.  7: the
   irregular-scan protocol, five stages.  8: partitioned segmaps by arm,
   tsums per arm.  9: every kernel with nest args takes the slice
   (codegen.h).  10: the tiled protocol.  11: a grid segmap may name
   its fastest dim.  12: NVRTC's options in the package (contraction
   per nest).  13: the segmented protocol's _final_group stage.  14:
   the tiled-split protocol.  15: lane-segments in every kernel
   descriptor.  */
#define FLAT_PACKAGE_VERSION 15u
#define FLAT_PACKAGE_ELF_SECTION ".flat_packages"

typedef enum flat_package_section
{
  FLAT_PKG_NAME = 1,		/* nest name: name(...) clause or file:line */
  FLAT_PKG_LOCATION = 2,	/* "file:line" of the marked loop */
  FLAT_PKG_PLAN = 3,		/* the flattened nest in IR text (ir.h) */
  FLAT_PKG_OPENCL = 4,		/* OpenCL C source of every kernel */
  FLAT_PKG_CUDA = 5,		/* CUDA C source of every kernel */
  FLAT_PKG_KERNELS = 6,		/* kernel descriptors (descriptor.h) */
  FLAT_PKG_OPENCL_OPTIONS = 7,	/* options of the OpenCL compiler for
				   FLAT_PKG_OPENCL */
  FLAT_PKG_CUDA_OPTIONS = 8	/* options of NVRTC for FLAT_PKG_CUDA */
} flat_package_section;

enum
{
  FLAT_PKG_MAX_SECTIONS = 8
};

/* Lay out N NUL-terminated TEXTS as sections of kinds KINDS (N at most
   FLAT_PKG_MAX_SECTIONS).  Returns a malloc'ed blob and its size, or NULL
   with a message in ERR.  */
unsigned char *flat_package_pack (const flat_package_section *kinds,
				  char *const *texts, int n, size_t *size,
				  char *err, size_t err_size);

/* Size of the package of this version at PKG, or 0 if PKG does not hold
   a well-formed one within AVAIL bytes.  A program reading a package
   embedded in itself trusts the size field and passes it as AVAIL; flat-tune, reading a
   section of a file, passes the bytes left in the section.  */
size_t flat_package_size (const unsigned char *pkg, size_t avail);

/* If the AVAIL bytes at PKG start a package of another version than
   FLAT_PACKAGE_VERSION, write to ERR what to do about it, naming both
   versions and the package's loop where its layout allows, and return
   1; else 0.  */
int flat_package_other_version (const unsigned char *pkg, size_t avail,
				char *err, size_t err_size);

/* Section KIND of a well-formed package as a string, or NULL if absent.  */
const char *flat_package_get (const unsigned char *pkg,
			      flat_package_section kind);

#ifdef __cplusplus
}
#endif

#endif /* FLAT_PACKAGE_H */
