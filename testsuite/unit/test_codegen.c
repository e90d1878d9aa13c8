/* Tests of codegen/: the kernel printer, its OpenCL and CUDA dialects, and
   nest packages.

   Each map nest is written in IR text at source level and flattened by
   hand: every top-level map of its body, with the maps perfectly nested in
   it, becomes a kernel over their indices, launched in order.  Reductions
   and scans come flattened in the text (segred and segscan kernels), and
   run_plan drives their kernels as codegen.h's protocol says, on launch
   shapes from one item to many groups.  The OpenCL source is compiled and
   run on the first OpenCL device (PoCL on the CI machine) and every result
   is compared with the same computation done here in plain C.  The same
   run tests are registered a second time for CUDA: they run where libcuda
   finds a GPU (PTX from NVRTC) and are skipped elsewhere.  The CUDA source
   of every nest is compiled with NVRTC whenever the library can be
   loaded, GPU or not.  Packages are built, read back, and corrupted.  */

#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <CUnit/CUnit.h>
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../codegen/codegen.h"
#include "../../flatten/descriptor.h"
#include "../../flatten/package.h"
#include "helpers.h"
#include "unit.h"

/* ---- Nests -------------------------------------------------------------- */

/* y = a * x + y, x read at an offset (its buffer starts at element 3).  */
static const char saxpy_ir[] =
  "nest \"saxpy\" at \"saxpy.c\" 12 {\n"
  "  param n : i32\n"
  "  param a : f32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 read write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store y[i] = (add (mul a (load x (add i 3:i32))) (load y i))\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A 2-D kernel whose dims have other types, starts and steps.  */
static const char grid2_ir[] =
  "nest \"grid2\" at \"t.c\" 2 {\n"
  "  param n : i32\n"
  "  param m : i64\n"
  "  param w : i64\n"
  "  mem out : i64 write\n"
  "  body {\n"
  "    map i : i32 = 1:i32 .. n step 1:i32 {\n"
  "      map j : i64 = -2:i64 .. m step 2:i64 {\n"
  "        store out[(add (mul (cast i64 i) w) (add j 2:i64))] ="
  " (add (mul (cast i64 i) 1000:i64) j)\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Run by one work-item, records the order in which points are visited.  */
static const char order_ir[] =
  "nest \"order\" at \"t.c\" 3 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem cnt : i32 read write\n"
  "  mem order : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      map j : i32 = 0:i32 .. m step 1:i32 {\n"
  "        let c : i32 = (load cnt 0:i32)\n"
  "        store order[(add (mul i m) j)] = c\n"
  "        store cnt[0:i32] = (add c 1:i32)\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Arithmetic on types narrower than int wraps as C's conversions do.  */
static const char narrow_ir[] =
  "nest \"narrow\" at \"t.c\" 4 {\n"
  "  param n : i32\n"
  "  mem x : u8 read\n"
  "  mem y : u8 read\n"
  "  mem s : i16 read\n"
  "  mem z : u8 write\n"
  "  mem h : i16 write\n"
  "  mem carry : bool write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let a : u8 = (load x i)\n"
  "      let b : u8 = (load y i)\n"
  "      let o : i32 = (mul i 7:i32)\n"
  "      store z[o] = (add a b)\n"
  "      store z[(add o 1:i32)] = (mul a b)\n"
  "      store z[(add o 2:i32)] = (sub a b)\n"
  "      store z[(add o 3:i32)] = (neg a)\n"
  "      store z[(add o 4:i32)] = (bnot a)\n"
  "      store z[(add o 5:i32)] = (shl a 3:i32)\n"
  "      store z[(add o 6:i32)] = (div a (max b 1:u8))\n"
  "      store carry[i] = (lt (add a b) a)\n"
  "      let c : i16 = (load s i)\n"
  "      store h[(mul i 2:i32)] = (mul c c)\n"
  "      store h[(add (mul i 2:i32) 1:i32)] = (sub c 30000:i16)\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char f64_ir[] =
  "nest \"f64\" at \"t.c\" 5 {\n"
  "  param n : i32\n"
  "  param s : f64\n"
  "  mem x : f64 read\n"
  "  mem f : f32 read\n"
  "  mem y : f64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let v : f64 = (load x i)\n"
  "      let o : i32 = (mul i 4:i32)\n"
  "      store y[o] = (add (mul v 0.1:f64) s)\n"
  "      store y[(add o 1:i32)] = (div (cast f64 (load f i)) 3:f64)\n"
  "      store y[(add o 2:i32)] = (cast f64 (cast f32 (mul v 1e-3:f64)))\n"
  "      store y[(add o 3:i32)] = (select (gt v 0:f64) inf:f64 -inf:f64)\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char math_ir[] =
  "nest \"math\" at \"t.c\" 6 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem d : f64 read\n"
  "  mem out : f32 write\n"
  "  mem dout : f64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let v : f32 = (load x i)\n"
  "      let o : i32 = (mul i 7:i32)\n"
  "      store out[o] = (call sqrtf (call fabsf v))\n"
  "      store out[(add o 1:i32)] = (call expf (mul v 0.25:f32))\n"
  "      store out[(add o 2:i32)] = (call powf (call fabsf v) 1.5:f32)\n"
  "      store out[(add o 3:i32)] = (call atan2f v 2:f32)\n"
  "      store out[(add o 4:i32)] = (call floorf v)\n"
  "      store out[(add o 5:i32)] = (call fminf v 1:f32)\n"
  "      store out[(add o 6:i32)] = (div v (add v 7.5:f32))\n"
  "      store dout[i] = (call exp (mul (load d i) 0.5:f64))\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A local array filled and read back in sequential loops, one counting
   down.  */
static const char local_array_ir[] =
  "nest \"local\" at \"t.c\" 7 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem out : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let buf : f32[8]\n"
  "      loop k : i32 = 0:i32 .. 8:i32 step 1:i32 {\n"
  "        store buf[k] = (mul (load x i) (cast f32 k))\n"
  "      }\n"
  "      let acc : f32 = 0:f32\n"
  "      loop k2 : i32 = 7:i32 .. -1:i32 step -1:i32 {\n"
  "        set acc = (add (mul acc 0.5:f32) (load buf k2))\n"
  "      }\n"
  "      store out[i] = acc\n"
  "    }\n"
  "  }\n"
  "}\n";

/* First element of each row above a threshold: a loop left by break.  */
static const char search_ir[] =
  "nest \"search\" at \"t.c\" 8 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  param t : i32\n"
  "  mem a : i32 read\n"
  "  mem pos : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let p : i32 = -1:i32\n"
  "      loop j : i32 = 0:i32 .. m step 1:i32 {\n"
  "        if (gt (load a (add (mul i m) j)) t) {\n"
  "          set p = j\n"
  "          break\n"
  "        }\n"
  "      }\n"
  "      store pos[i] = p\n"
  "    }\n"
  "  }\n"
  "}\n";

/* if/else, while, do-while and select.  */
static const char control_ir[] =
  "nest \"control\" at \"t.c\" 9 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem out : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let v : i32 = (load x i)\n"
  "      let o : i32 = (mul i 4:i32)\n"
  "      let code : i32 = 0:i32\n"
  "      if (lt v 0:i32) {\n"
  "        set code = -1:i32\n"
  "      } else {\n"
  "        if (eq (mod v 2:i32) 0:i32) {\n"
  "          set code = 2:i32\n"
  "        } else {\n"
  "          set code = 1:i32\n"
  "        }\n"
  "      }\n"
  "      store out[o] = code\n"
  "      let c : u32 = (cast u32 (add (abs v) 1:i32))\n"
  "      let steps : i32 = 0:i32\n"
  "      while (ne c 1:u32) {\n"
  "        if (eq (band c 1:u32) 0:u32) {\n"
  "          set c = (shr c 1:u32)\n"
  "        } else {\n"
  "          set c = (add (mul c 3:u32) 1:u32)\n"
  "        }\n"
  "        set steps = (add steps 1:i32)\n"
  "      }\n"
  "      store out[(add o 1:i32)] = steps\n"
  "      let digits : i32 = 0:i32\n"
  "      let r : i32 = (abs v)\n"
  "      do {\n"
  "        set digits = (add digits 1:i32)\n"
  "        set r = (div r 10:i32)\n"
  "      } while (gt r 0:i32)\n"
  "      store out[(add o 2:i32)] = digits\n"
  "      store out[(add o 3:i32)] ="
  " (select (gt v 0:i32) (mul v 2:i32) (sub 0:i32 v))\n"
  "    }\n"
  "  }\n"
  "}\n";

static const char minmax_ir[] =
  "nest \"minmax\" at \"t.c\" 10 {\n"
  "  param n : i32\n"
  "  mem xi : i32 read\n"
  "  mem yi : i32 read\n"
  "  mem xf : f32 read\n"
  "  mem yf : f32 read\n"
  "  mem oi : i32 write\n"
  "  mem of : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let o : i32 = (mul i 3:i32)\n"
  "      store oi[o] = (min (load xi i) (load yi i))\n"
  "      store oi[(add o 1:i32)] = (max (load xi i) (load yi i))\n"
  "      store oi[(add o 2:i32)] = (abs (load xi i))\n"
  "      store of[o] = (min (load xf i) (load yf i))\n"
  "      store of[(add o 1:i32)] = (max (load xf i) (load yf i))\n"
  "      store of[(add o 2:i32)] = (abs (load xf i))\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Constants at the edges of their types, and bool conversions.  */
static const char consts_ir[] =
  "nest \"consts\" at \"t.c\" 11 {\n"
  "  param flag : bool\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem b : bool write\n"
  "  mem l : i64 write\n"
  "  mem ul : u64 write\n"
  "  mem w : i32 write\n"
  "  mem uw : u32 write\n"
  "  mem c : i8 write\n"
  "  mem f : f32 write\n"
  "  mem d : f64 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store b[i] = (land flag (cast bool (load x i)))\n"
  "      if (eq i 0:i32) {\n"
  "        store l[0:i32] = -9223372036854775808:i64\n"
  "        store l[1:i32] ="
  " (add -9223372036854775807:i64 9223372036854775807:i64)\n"
  "        store l[2:i32] = (mul -2147483648:i64 3:i64)\n"
  "        store ul[0:i32] = 18446744073709551615:u64\n"
  "        store ul[1:i32] = (cast u64 -1:i32)\n"
  "        store ul[2:i32] = (div 18446744073709551615:u64 3:u64)\n"
  "        store ul[3:i32] = (add 18446744073709551615:u64 2:u64)\n"
  "        store w[0:i32] = -2147483648:i32\n"
  "        store w[1:i32] = (cast i32 4294967295:u32)\n"
  "        store uw[0:i32] = 4294967295:u32\n"
  "        store uw[1:i32] = (shr 4294967295:u32 4:i32)\n"
  "        store c[0:i32] = -128:i8\n"
  "        store c[1:i32] = (sub -128:i8 1:i8)\n"
  "        store f[0:i32] = 0.1:f32\n"
  "        store f[1:i32] = inf:f32\n"
  "        store f[2:i32] = -inf:f32\n"
  "        store f[3:i32] = nan:f32\n"
  "        store f[4:i32] = -0:f32\n"
  "        store f[5:i32] = 1e-45:f32\n"
  "        store d[0:i32] = 0.1:f64\n"
  "        store d[1:i32] = -inf:f64\n"
  "        store d[2:i32] = nan:f64\n"
  "        store d[3:i32] = 4.9406564584124654e-324:f64\n"
  "        store d[4:i32] = -1.7976931348623157e308:f64\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Two kernels in one program, the second reading what the first wrote.  */
static const char two_ir[] =
  "nest \"two\" at \"t.c\" 12 {\n"
  "  param n : i32\n"
  "  mem x : f32 read\n"
  "  mem y : f32 read write\n"
  "  mem z : f32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store y[i] = (mul (load x i) 2:f32)\n"
  "    }\n"
  "    map i2 : i32 = 0:i32 .. n step 1:i32 {\n"
  "      store z[i2] = (add (load y i2) (load y (sub (sub n 1:i32) i2)))\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Reductions and scans, flattened in the text (a top-level reduce is a
   segred kernel over its range, a scan a segscan whose contrib block is
   its body up to the update, without stores).  */

/* Integer accumulators of several types, one per reduction operator.  */
static const char *const ints_red =
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (add sum, min lo,"
  " max hi, band ba, bor bo, bxor bx, land all, lor any, mul pr) {\n"
  "      let v : i32 = (load x i)\n"
  "      let w : u32 = (load u i)\n"
  "      set sum = (add sum (mul (cast i64 v) 1000003:i64))\n"
  "      set lo = (min lo v)\n"
  "      set hi = (max hi (cast i16 v))\n"
  "      set ba = (band ba (bor w 4042322160:u32))\n"
  "      set bo = (bor bo (cast u8 (band w 4294901775:u32)))\n"
  "      set bx = (bxor bx (shl (cast u64 w) (band v 31:i32)))\n"
  "      set all = (land all (ne v 0:i32))\n"
  "      set any = (lor any (eq v 12345:i32))\n"
  "      set pr = (mul pr (bor w 1:u32))\n"
  "    }\n";

/* Float accumulators; e sums multiples of 1/8 whose partial sums are all
   exact, so its result does not depend on the order.  */
static const char *const floats_red =
  "    reduce i : i32 = 0:i32 .. n step 1:i32 with (add s, min lo,"
  " max hi, mul p, add e) {\n"
  "      let v : f32 = (load x i)\n"
  "      set s = (add s v)\n"
  "      set lo = (min lo (cast f64 v))\n"
  "      set hi = (max hi (sub v 1000:f32))\n"
  "      set p = (mul p (add 1:f64 (mul (cast f64 v) 0.0001:f64)))\n"
  "      set e = (add e (mul (cast f32 (band (load k i) 127:i32))"
  " 0.125:f32))\n"
  "    }\n";

/* Exclusive and inclusive prefixes, with a let before the update.  */
static const char *const iscan_scan =
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add a) {\n"
  "      let t : i32 = (sub (mul (load x i) 3:i32) 1:i32)\n"
  "      store ex[i] = a\n"
  "      set a = (add a t)\n"
  "      store in[i] = a\n"
  "    }\n";

static const char *const fscan_scan =
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (add a) {\n"
  "      store ex[i] = a\n"
  "      set a = (add a (load x i))\n"
  "      store in[i] = a\n"
  "    }\n";

/* A narrow type, and an identity that is not zero.  */
static const char *const mscan_scan =
  "    scan i : i32 = 0:i32 .. n step 1:i32 with (min a) {\n"
  "      store ex[i] = a\n"
  "      set a = (min a (cast i16 (load x i)))\n"
  "      store in[i] = a\n"
  "    }\n";

/* A reduce and a scan inside a map: sequential loops of one work-item.
   Row sums (from 0.5) and exclusive row maxima (from 0).  */
static const char rows_ir[] =
  "nest \"rows\" at \"t.c\" 24 {\n"
  "  param n : i32\n"
  "  param m : i32\n"
  "  mem a : f32 read\n"
  "  mem ai : i32 read\n"
  "  mem sums : f32 write\n"
  "  mem pre : i32 write\n"
  "  body {\n"
  "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
  "      let s : f32 = 0.5:f32\n"
  "      reduce j : i32 = 0:i32 .. m step 1:i32 with (add s) {\n"
  "        set s = (add s (load a (add (mul i m) j)))\n"
  "      }\n"
  "      store sums[i] = s\n"
  "      let c : i32 = 0:i32\n"
  "      scan j2 : i32 = 0:i32 .. m step 1:i32 with (max c) {\n"
  "        store pre[(add (mul i m) j2)] = c\n"
  "        set c = (max c (load ai (add (mul i m) j2)))\n"
  "      }\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Nest NAME with HEADER lines and the one top-level reduce or scan SOAC,
   flattened into kernel k0 (CONTRIB: the segscan's contrib block).
   Malloc'ed.  */
static char *
soac_nest (const char *name, const char *header, const char *soac,
	   const char *contrib)
{
  const char *with = strstr (soac, " with ");
  const char *open = strstr (soac, " {\n");
  const char *range = strchr (soac + strspn (soac, " "), ' ');
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&text, &size);

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  CU_ASSERT_FATAL (with != NULL && open != NULL && range < with);
  range++;
  fprintf (out, "nest \"%s\" at \"t.c\" 20 {\n%s  body {\n%s  }\n"
	   "  kernel k0 %s grid (%.*s)%.*s", name, header, soac,
	   contrib != NULL ? "segscan" : "segred", (int) (with - range), range,
	   (int) (open - with), with);
  if (contrib != NULL)
    fprintf (out, " contrib {\n%s  } body", contrib);
  fprintf (out, "%s  plan {\n    launch k0\n  }\n}\n", open);
  CU_ASSERT_EQUAL_FATAL (fclose (out), 0);
  return text;
}

static char *
ints_ir (void)
{
  return soac_nest ("ints", "  param n : i32\n  mem x : i32 read\n"
		    "  mem u : u32 read\n  acc sum : i64\n  acc lo : i32\n"
		    "  acc hi : i16\n  acc ba : u32\n  acc bo : u8\n"
		    "  acc bx : u64\n  acc all : bool\n  acc any : bool\n"
		    "  acc pr : u32\n", ints_red, NULL);
}

static char *
floats_ir (void)
{
  return soac_nest ("floats", "  param n : i32\n  mem x : f32 read\n"
		    "  mem k : i32 read\n  acc s : f32\n  acc lo : f64\n"
		    "  acc hi : f32\n  acc p : f64\n  acc e : f32\n",
		    floats_red, NULL);
}

static char *
iscan_ir (void)
{
  return soac_nest ("iscan", "  param n : i32\n  mem x : i32 read\n"
		    "  mem ex : i32 write\n  mem in : i32 write\n"
		    "  acc a : i32\n", iscan_scan,
		    "    let t : i32 = (sub (mul (load x i) 3:i32) 1:i32)\n"
		    "    set a = (add a t)\n");
}

static char *
fscan_ir (void)
{
  return soac_nest ("fscan", "  param n : i32\n  mem x : f32 read\n"
		    "  mem ex : f32 write\n  mem in : f32 write\n"
		    "  acc a : f32\n", fscan_scan,
		    "    set a = (add a (load x i))\n");
}

static char *
mscan_ir (void)
{
  return soac_nest ("mscan", "  param n : i32\n  mem x : i32 read\n"
		    "  mem ex : i16 write\n  mem in : i16 write\n"
		    "  acc a : i16\n", mscan_scan,
		    "    set a = (min a (cast i16 (load x i)))\n");
}

/* Every nest above: all are compiled for CUDA too, as are allmath_ir and
   the SOAC nests of soac_nests.  */
static const char *const all_nests[] = {
  saxpy_ir, grid2_ir, order_ir, narrow_ir, f64_ir, math_ir, local_array_ir,
  search_ir, control_ir, minmax_ir, consts_ir, two_ir, rows_ir
};

static char *(*const soac_nests[]) (void) = {
  ints_ir, floats_ir, iscan_ir, fscan_ir, mscan_ir
};

/* Flatten NEST by hand, as the kernels pass does for perfect map
   nests.  */
static void
flatten_by_hand (flat_nest *nest)
{
  const flat_stmt *s;

  for (s = nest->body.first; s != NULL; s = s->next)
    {
      const flat_stmt *m = s;
      flat_kernel *k;
      flat_stmt *launch;
      int depth = 1, d;

      CU_ASSERT_EQUAL_FATAL (s->kind, FLAT_S_MAP);
      while (m->u.loop.body.first != NULL
	     && m->u.loop.body.first == m->u.loop.body.last
	     && m->u.loop.body.first->kind == FLAT_S_MAP)
	{
	  m = m->u.loop.body.first;
	  depth++;
	}
      k = flat_kernel_new (nest, FLAT_N_SEGMAP, depth, 0);
      for (m = s, d = 0; d < depth; d++)
	{
	  k->dims[d] = m->u.loop.range;
	  if (d + 1 < depth)
	    m = m->u.loop.body.first;
	}
      k->body = m->u.loop.body;
      launch = flat_s_new (nest, FLAT_S_LAUNCH, 0);
      launch->u.launch.kernel = k;
      flat_block_append (&nest->plan, launch);
    }
}

static flat_nest *
load_nest (const char *text)
{
  flat_nest *nest = parse_nest (text);

  if (nest->n_kernels == 0)
    flatten_by_hand (nest);
  return nest;
}

/* Every math function of mathfns.def applied to loaded values:
   out[i * FLAT_N_MATH + fn] = (cast f64 (call fn ARGS)), the arguments
   built from x in (0, 1) so that every one is inside its domain (acosh's
   is x + 1), an int argument (ldexp's exponent) from 8x.  Malloc'ed.  */
static char *
allmath_ir (void)
{
  static const char *const args[2][3] = {
    { "vf", "(mul vf 0.5:f32)", "(add vf 0.25:f32)" },
    { "vd", "(mul vd 0.5:f64)", "(add vd 0.25:f64)" }
  };
  char *text = NULL;
  size_t size = 0;
  FILE *out = open_memstream (&text, &size);
  int fn, k;

  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  fprintf (out, "nest \"allmath\" at \"t.c\" 13 {\n"
	   "  param n : i32\n  mem xf : f32 read\n  mem xd : f64 read\n"
	   "  mem out : f64 write\n  body {\n"
	   "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
	   "      let vf : f32 = (load xf i)\n      let vd : f64 = (load xd i)\n"
	   "      let o : i32 = (mul i %d:i32)\n", FLAT_N_MATH);
  for (fn = 0; fn < FLAT_N_MATH; fn++)
    {
      const flat_math_info *mi = &flat_math_table[fn];
      int d = mi->type == FLAT_T_F64;
      const char *t = d ? "f64" : "f32";

      fprintf (out, "      store out[(add o %d:i32)] = (cast f64 (call %s",
	       fn, mi->c_name);
      for (k = 0; k < mi->arity; k++)
	if (mi->args[k] == FLAT_T_I32)
	  fprintf (out, " (cast i32 (mul %s 8:%s))", args[d][0], t);
	else if (k == 0 && !strncmp (mi->c_name, "acosh", 5))
	  fprintf (out, " (add %s 1:%s)", args[d][0], t);
	else
	  fprintf (out, " %s", args[d][k]);
      fprintf (out, "))\n");
    }
  fprintf (out, "    }\n  }\n}\n");
  CU_ASSERT_EQUAL_FATAL (fclose (out), 0);
  return text;
}

/* Deterministic test data.  */
static uint32_t lcg_state;

static uint32_t
lcg (void)
{
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}

/* ---- Arguments ---------------------------------------------------------- */

/* The value of one param or acc, or the host elements of one mem.  An
   acc's value is replaced by its value after the nest.  */
typedef struct arg
{
  const char *name;
  long long i;			/* integer or bool PARAM or ACC */
  double f;			/* float PARAM or ACC */
  void *data;			/* MEM: IR elements lo .. lo + count - 1 */
  size_t count;
  long long lo;
} arg;

#define INT_ARG(N, V) { .name = (N), .i = (V) }
#define FLOAT_ARG(N, V) { .name = (N), .f = (V) }
#define MEM_ARG(N, P, C) { .name = (N), .data = (P), .count = (C) }

static arg *
find_arg (arg *args, int n_args, const char *name)
{
  int i;

  for (i = 0; i < n_args; i++)
    if (strcmp (args[i].name, name) == 0)
      return &args[i];
  return NULL;
}

/* Bytes of a PARAM of type T as the kernel ABI passes it (as many as the
   type's size).  */
static void
param_bytes (flat_type t, const arg *a, void *buf)
{
  union
  {
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
  } v;

  switch (t)
    {
    case FLAT_T_BOOL: v.u8 = a->i != 0; break;
    case FLAT_T_I8: v.i8 = (int8_t) a->i; break;
    case FLAT_T_U8: v.u8 = (uint8_t) a->i; break;
    case FLAT_T_I16: v.i16 = (int16_t) a->i; break;
    case FLAT_T_U16: v.u16 = (uint16_t) a->i; break;
    case FLAT_T_I32: v.i32 = (int32_t) a->i; break;
    case FLAT_T_U32: v.u32 = (uint32_t) a->i; break;
    case FLAT_T_I64: v.i64 = a->i; break;
    case FLAT_T_U64: v.u64 = (uint64_t) a->i; break;
    case FLAT_T_F32: v.f32 = (float) a->f; break;
    case FLAT_T_F64: v.f64 = a->f; break;
    case FLAT_N_TYPES: break;
    }
  memcpy (buf, &v, (size_t) flat_type_table[t].size);
}

/* The value of type T whose bytes (as many as its size) are at BUF.  */
static flat_value
value_of_bytes (flat_type t, const void *buf)
{
  union
  {
    int8_t i8;
    uint8_t u8;
    int16_t i16;
    uint16_t u16;
    int32_t i32;
    uint32_t u32;
    int64_t i64;
    uint64_t u64;
    float f32;
    double f64;
  } v;
  flat_value r = { .u = 0 };

  memcpy (&v, buf, (size_t) flat_type_table[t].size);
  switch (t)
    {
    case FLAT_T_BOOL: r.u = v.u8 != 0; break;
    case FLAT_T_I8: r.i = v.i8; break;
    case FLAT_T_U8: r.u = v.u8; break;
    case FLAT_T_I16: r.i = v.i16; break;
    case FLAT_T_U16: r.u = v.u16; break;
    case FLAT_T_I32: r.i = v.i32; break;
    case FLAT_T_U32: r.u = v.u32; break;
    case FLAT_T_I64: r.i = v.i64; break;
    case FLAT_T_U64: r.u = v.u64; break;
    case FLAT_T_F32: r.f = v.f32; break;
    case FLAT_T_F64: r.f = v.f64; break;
    case FLAT_N_TYPES: break;
    }
  return r;
}

/* The value of scalar A as a T, and its replacement.  */
static flat_value
arg_value (flat_type t, const arg *a)
{
  unsigned char bytes[8];

  param_bytes (t, a, bytes);
  return value_of_bytes (t, bytes);
}

static void
set_arg_value (arg *a, flat_type t, flat_value v)
{
  if (flat_type_table[t].is_float)
    a->f = v.f;
  else
    a->i = v.i;
}

/* ---- Running kernels ---------------------------------------------------- */

/* The arguments of one launch, each as the bytes of its value: scalars,
   and buffer handles (a cl_mem or a CUdeviceptr, both 8 bytes).  */
enum { MAX_ARGS = 64, MAX_ACCS = 16 };

typedef struct arg_list
{
  int n;
  size_t size[MAX_ARGS];
  unsigned char value[MAX_ARGS][8];
} arg_list;

static void
add_bytes (arg_list *l, const void *value, size_t size)
{
  CU_ASSERT_FATAL (l->n < MAX_ARGS && size <= 8);
  l->size[l->n] = size;
  memcpy (l->value[l->n++], value, size);
}

static void
add_i64 (arg_list *l, int64_t v)
{
  add_bytes (l, &v, sizeof v);
}

static void
add_buffer (arg_list *l, void *handle)
{
  add_bytes (l, &handle, sizeof handle);
}

/* A back end: compiles the kernels of a nest, holds buffers and launches
   kernels.  The run tests are written once and registered in one suite
   per back end; the suite's init function picks the runner, and run_plan
   drives it.  */
typedef struct runner
{
  /* The compiled kernels of NEST, or NULL after a failure that says
     why.  */
  void *(*build) (const flat_nest *nest);
  void (*release) (void *prog);
  /* A device buffer of SIZE > 0 bytes, a copy of INIT unless that is
     NULL; the handle is the value a kernel argument passes.  */
  void *(*alloc) (size_t size, const void *init);
  /* SIZE bytes of BUF, once every launch so far has finished.  */
  void (*read) (void *buf, void *dst, size_t size);
  void (*free) (void *buf);
  /* Kernel NAME of PROG on GROUPS groups of GROUP_SIZE work-items.  */
  void (*launch) (void *prog, const char *name, const arg_list *args,
		  size_t groups, size_t group_size);
} runner;

/* The runner of the suite being run.  */
static const runner *current;

/* The nest args of a kernel of NEST (codegen.h): each mem's buffer (in
   BUFS, by param) and offset, each param's and acc's value, the whole
   slice (NEST has no plan indices).  */
static void
add_nest_args (arg_list *l, const flat_nest *nest, arg *args, int n_args,
	       void *const *bufs)
{
  int p;

  for (p = 0; p < nest->n_params; p++)
    {
      const flat_var *v = nest->params[p];
      const arg *a = find_arg (args, n_args, v->name);
      unsigned char bytes[8];

      CU_ASSERT_PTR_NOT_NULL_FATAL (a);
      if (v->kind == FLAT_VAR_MEM)
	{
	  add_buffer (l, bufs[p]);
	  add_i64 (l, a->lo);
	}
      else
	{
	  param_bytes (v->type, a, bytes);
	  add_bytes (l, bytes, (size_t) flat_type_table[v->type].size);
	}
    }
  /* The slice: every iteration.  */
  add_i64 (l, 0);
  add_i64 (l, INT64_MAX);
}

static void
launch_kernel (void *prog, const flat_kernel *k, const char *suffix,
	       const arg_list *l, size_t groups, size_t group_size)
{
  char name[64];

  snprintf (name, sizeof name, "flat_%s%s", k->name, suffix);
  current->launch (prog, name, l, groups, group_size);
}

/* The number of iterations of K's dims, from the args of the params.  */
static int64_t
kernel_total (const flat_nest *nest, const flat_kernel *k, arg *args,
	      int n_args)
{
  flat_value *env = calloc ((size_t) nest->n_vars + 1, sizeof *env);
  int64_t total = 1;
  int p, d;

  CU_ASSERT_PTR_NOT_NULL_FATAL (env);
  for (p = 0; p < nest->n_params; p++)
    if (nest->params[p]->kind != FLAT_VAR_MEM)
      env[nest->params[p]->id]
	= arg_value (nest->params[p]->type,
		     find_arg (args, n_args, nest->params[p]->name));
  for (d = 0; d < k->n_dims; d++)
    {
      int64_t n = flat_range_trip_count (&k->dims[d], env);

      CU_ASSERT_FATAL (n >= 0);
      total *= n;
    }
  free (env);
  return total;
}

/* ACC's arg becomes its value OP the result of type T in RES.  */
static void
combine_into_acc (const flat_accum *acc, arg *args, int n_args, void *res)
{
  flat_type t = acc->var->type;
  arg *a = find_arg (args, n_args, acc->var->name);
  unsigned char bytes[8];

  CU_ASSERT_PTR_NOT_NULL_FATAL (a);
  current->read (res, bytes, (size_t) flat_type_table[t].size);
  set_arg_value (a, t, flat_op_apply (acc->op, t, arg_value (t, a),
				      value_of_bytes (t, bytes)));
}

/* A SEGRED kernel as codegen.h says, TOTAL iterations on G groups of B
   work-items: the chunks into part_j, the parts into res_j, then
   a_j = a_j OP res_j.  */
static void
run_segred (void *prog, const flat_nest *nest, const flat_kernel *k,
	    arg *args, int n_args, void *const *bufs, int64_t total,
	    size_t g, size_t b)
{
  void *part[MAX_ACCS], *res[MAX_ACCS];
  arg_list l = { 0 };
  int j;

  CU_ASSERT_FATAL (k->n_accs <= MAX_ACCS);
  for (j = 0; j < k->n_accs; j++)
    {
      size_t size = (size_t) flat_type_table[k->accs[j].var->type].size;

      part[j] = current->alloc (g * size, NULL);
      res[j] = current->alloc (size, NULL);
    }
  add_nest_args (&l, nest, args, n_args, bufs);
  add_i64 (&l, (total + (int64_t) g - 1) / (int64_t) g);
  for (j = 0; j < k->n_accs; j++)
    add_buffer (&l, part[j]);
  launch_kernel (prog, k, "", &l, g, b);
  l.n = 0;
  add_i64 (&l, (int64_t) g);
  for (j = 0; j < k->n_accs; j++)
    {
      add_buffer (&l, part[j]);
      add_buffer (&l, res[j]);
    }
  launch_kernel (prog, k, "_final", &l, 1, b);
  for (j = 0; j < k->n_accs; j++)
    {
      combine_into_acc (&k->accs[j], args, n_args, res[j]);
      current->free (part[j]);
      current->free (res[j]);
    }
}

/* A SEGSCAN kernel as codegen.h says, TOTAL iterations on G groups of B
   work-items, in tiles of B * FLAT_SCAN_ITEMS: reduce-then-scan (the
   chunks' totals, then the body on the prefixes, G capped so that no
   group is empty) or a single pass (B at least FLAT_SCAN_MIN_GROUP; the
   statuses cleared, for a ticket a tile or more, then the tickets); the
   acc becomes the total.  */
static void
run_segscan (void *prog, const flat_nest *nest, const flat_kernel *k,
	     arg *args, int n_args, void *const *bufs, int64_t total,
	     size_t g, size_t b)
{
  flat_type t = k->accs[0].var->type;
  size_t size = (size_t) flat_type_table[t].size;
  int64_t tile = (int64_t) b * FLAT_SCAN_ITEMS;
  int64_t tiles = (total - 1) / tile + 1;
  arg *a = find_arg (args, n_args, k->accs[0].var->name);
  void *res = current->alloc (size, NULL), *status = NULL, *part = NULL;
  arg_list l = { 0 };
  unsigned char bytes[8];

  CU_ASSERT_PTR_NOT_NULL_FATAL (a);
  if (flat_segscan_single_pass (k))
    {
      int64_t words;
      flat_kernel_desc d;

      /* Whole warps, as the runtime gives it.  */
      if (b < FLAT_SCAN_MIN_GROUP)
	{
	  b = FLAT_SCAN_MIN_GROUP;
	  tiles = (total - 1) / ((int64_t) b * FLAT_SCAN_ITEMS) + 1;
	}
      flat_kernel_describe (k, &d);
      words = flat_desc_status_total (&d, (int64_t) g, tiles);

      status = current->alloc ((size_t) words * 8, NULL);
      add_i64 (&l, words);
      add_buffer (&l, status);
      launch_kernel (prog, k, "_pre", &l, g, b);
      l.n = 0;
      add_nest_args (&l, nest, args, n_args, bufs);
      add_buffer (&l, status);
    }
  else
    {
      int64_t chunk = ((total - 1) / (int64_t) g / tile + 1) * tile;

      g = (size_t) ((total - 1) / chunk + 1);
      part = current->alloc (g * size, NULL);
      add_nest_args (&l, nest, args, n_args, bufs);
      add_i64 (&l, chunk);
      add_buffer (&l, part);
      launch_kernel (prog, k, "_pre", &l, g, b);
    }
  add_buffer (&l, res);
  launch_kernel (prog, k, "", &l, g, b);
  current->read (res, bytes, size);
  set_arg_value (a, t, value_of_bytes (t, bytes));
  current->free (res);
  current->free (part ? part : status);
}

/* Run the plan of NEST on GROUPS groups of GROUP_SIZE work-items: copy
   every mem in, launch each kernel (a segred or segscan as codegen.h
   says, with G = GROUPS and B = GROUP_SIZE, and nothing for an empty
   range), copy every mem back.  The acc args end with their values after
   the nest.  */
static void
run_plan (void *prog, const flat_nest *nest, arg *args, int n_args,
	  size_t groups, size_t group_size)
{
  void *bufs[MAX_ARGS] = { 0 };
  const flat_stmt *s;
  int p;

  CU_ASSERT_FATAL (nest->n_params <= MAX_ARGS);
  for (p = 0; p < nest->n_params; p++)
    {
      const flat_var *v = nest->params[p];
      const arg *a = find_arg (args, n_args, v->name);
      size_t elem = (size_t) flat_type_table[v->type].size;

      CU_ASSERT_PTR_NOT_NULL_FATAL (a);
      if (v->kind == FLAT_VAR_MEM)
	bufs[p] = current->alloc (a->count > 0 ? a->count * elem : elem,
				  a->count > 0 ? a->data : NULL);
    }
  for (s = nest->plan.first; s != NULL; s = s->next)
    {
      const flat_kernel *k = s->u.launch.kernel;
      int64_t total = kernel_total (nest, k, args, n_args);
      arg_list l = { 0 };

      if (k->kind == FLAT_N_SEGMAP)
	{
	  add_nest_args (&l, nest, args, n_args, bufs);
	  launch_kernel (prog, k, "", &l, groups, group_size);
	}
      else if (total > 0 && k->kind == FLAT_N_SEGRED)
	run_segred (prog, nest, k, args, n_args, bufs, total, groups,
		    group_size);
      else if (total > 0)
	run_segscan (prog, nest, k, args, n_args, bufs, total, groups,
		     group_size);
    }
  for (p = 0; p < nest->n_params; p++)
    {
      const flat_var *v = nest->params[p];
      const arg *a = find_arg (args, n_args, v->name);

      if (bufs[p] == NULL)
	continue;
      if (a->count > 0)
	current->read (bufs[p], a->data,
		       a->count * (size_t) flat_type_table[v->type].size);
      current->free (bufs[p]);
    }
}

/* ---- OpenCL ------------------------------------------------------------- */

static cl_context cl_ctx;
static cl_command_queue cl_queue;
static cl_device_id cl_dev;

/* The OpenCL program of NEST, or NULL (and a failure) if it does not
   compile; the build log is printed then.  Built as the runtime builds
   it: correctly rounded float division and square root where the
   device offers them (Note [Correctly rounded floats] in
   runtime/backend_opencl.c; NVIDIA's driver is 1 ulp off without).  */
static void *
opencl_build (const flat_nest *nest)
{
  char err[256], options[128];
  char *src = flat_emit_opencl (nest, err, sizeof err);
  cl_device_fp_config fp32 = 0;
  cl_program prog;
  cl_int rc;

  if (clGetDeviceInfo (cl_dev, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fp32,
		       &fp32, NULL) != CL_SUCCESS)
    fp32 = 0;
  snprintf (options, sizeof options, "%s%s", flat_opencl_build_options,
	    fp32 & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
	    ? " -cl-fp32-correctly-rounded-divide-sqrt" : "");

  if (src == NULL)
    fprintf (stderr, "\nflat_emit_opencl: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (src);
  prog = clCreateProgramWithSource (cl_ctx, 1, (const char **) &src, NULL,
				    &rc);
  CU_ASSERT_EQUAL_FATAL (rc, CL_SUCCESS);
  rc = clBuildProgram (prog, 1, &cl_dev, options, NULL, NULL);
  if (rc != CL_SUCCESS)
    {
      char log[16384];

      if (clGetProgramBuildInfo (prog, cl_dev, CL_PROGRAM_BUILD_LOG,
				 sizeof log, log, NULL) != CL_SUCCESS)
	strcpy (log, "(no log)");
      fprintf (stderr, "\n%s\nOpenCL build failed:\n%s\n", src, log);
      CU_ASSERT_EQUAL (clReleaseProgram (prog), CL_SUCCESS);
      prog = NULL;
    }
  CU_ASSERT_EQUAL (rc, CL_SUCCESS);
  free (src);
  return prog;
}

static void
opencl_release (void *prog)
{
  CU_ASSERT_EQUAL (clReleaseProgram (prog), CL_SUCCESS);
}

static void *
opencl_alloc (size_t size, const void *init)
{
  cl_int rc;
  cl_mem buf = clCreateBuffer (cl_ctx, CL_MEM_READ_WRITE
			       | (init != NULL ? CL_MEM_COPY_HOST_PTR : 0),
			       size, (void *) init, &rc);

  CU_ASSERT_EQUAL_FATAL (rc, CL_SUCCESS);
  return buf;
}

static void
opencl_read (void *buf, void *dst, size_t size)
{
  CU_ASSERT_EQUAL (clEnqueueReadBuffer (cl_queue, buf, CL_TRUE, 0, size, dst,
					0, NULL, NULL), CL_SUCCESS);
}

static void
opencl_free (void *buf)
{
  CU_ASSERT_EQUAL (clReleaseMemObject (buf), CL_SUCCESS);
}

static void
opencl_launch (void *prog, const char *name, const arg_list *args,
	       size_t groups, size_t group_size)
{
  size_t global = groups * group_size;
  cl_kernel kernel;
  cl_int rc;
  int i;

  kernel = clCreateKernel (prog, name, &rc);
  CU_ASSERT_EQUAL_FATAL (rc, CL_SUCCESS);
  for (i = 0; i < args->n; i++)
    CU_ASSERT_EQUAL (clSetKernelArg (kernel, (cl_uint) i, args->size[i],
				     args->value[i]), CL_SUCCESS);
  CU_ASSERT_EQUAL (clEnqueueNDRangeKernel (cl_queue, kernel, 1, NULL,
					   &global, &group_size, 0, NULL,
					   NULL), CL_SUCCESS);
  CU_ASSERT_EQUAL (clReleaseKernel (kernel), CL_SUCCESS);
}

static const runner opencl_runner = {
  opencl_build, opencl_release, opencl_alloc, opencl_read, opencl_free,
  opencl_launch
};

static int
opencl_suite_init (void)
{
  cl_platform_id platform;
  cl_uint n;
  cl_int rc;

  if (clGetPlatformIDs (1, &platform, &n) != CL_SUCCESS || n == 0
      || clGetDeviceIDs (platform, CL_DEVICE_TYPE_ALL, 1, &cl_dev, &n)
	 != CL_SUCCESS || n == 0)
    return 1;
  cl_ctx = clCreateContext (NULL, 1, &cl_dev, NULL, NULL, &rc);
  if (rc != CL_SUCCESS)
    return 1;
  cl_queue = clCreateCommandQueue (cl_ctx, cl_dev, 0, &rc);
  if (rc != CL_SUCCESS)
    return 1;
  current = &opencl_runner;
  return 0;
}

static int
opencl_suite_cleanup (void)
{
  if (cl_queue != NULL && clReleaseCommandQueue (cl_queue) != CL_SUCCESS)
    return 1;
  if (cl_ctx != NULL && clReleaseContext (cl_ctx) != CL_SUCCESS)
    return 1;
  cl_queue = NULL;
  cl_ctx = NULL;
  return 0;
}

/* ---- NVRTC -------------------------------------------------------------- */

/* The NVRTC entry points used, by their documented C signatures; loaded
   once, kept for the whole run.  */
static struct
{
  void *lib;
  int (*create) (void **prog, const char *src, const char *name,
		 int n_headers, const char *const *headers,
		 const char *const *include_names);
  int (*compile) (void *prog, int n_options, const char *const *options);
  int (*log_size) (void *prog, size_t *size);
  int (*log) (void *prog, char *log);
  int (*ptx_size) (void *prog, size_t *size);
  int (*ptx) (void *prog, char *ptx);
  int (*destroy) (void **prog);
  int (*n_archs) (int *n);
  int (*archs) (int *archs);
} nvrtc;

/* Look SYMS[i].name up in LIB for each of the N entries.  */
typedef struct symbol
{
  const char *name;
  void **slot;
} symbol;

static int
load_symbols (void *lib, const symbol *syms, size_t n)
{
  size_t i;

  for (i = 0; i < n; i++)
    if ((*syms[i].slot = dlsym (lib, syms[i].name)) == NULL)
      return 0;
  return 1;
}

static int
nvrtc_load (void)
{
  static const char *const names[] = {
    "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
    "/usr/local/cuda/lib64/libnvrtc.so",
    "/usr/local/cuda/lib64/libnvrtc.so.13",
    "/usr/local/cuda/lib64/libnvrtc.so.12"
  };
  const symbol syms[] = {
    { "nvrtcCreateProgram", (void **) &nvrtc.create },
    { "nvrtcCompileProgram", (void **) &nvrtc.compile },
    { "nvrtcGetProgramLogSize", (void **) &nvrtc.log_size },
    { "nvrtcGetProgramLog", (void **) &nvrtc.log },
    { "nvrtcGetPTXSize", (void **) &nvrtc.ptx_size },
    { "nvrtcGetPTX", (void **) &nvrtc.ptx },
    { "nvrtcDestroyProgram", (void **) &nvrtc.destroy },
    { "nvrtcGetNumSupportedArchs", (void **) &nvrtc.n_archs },
    { "nvrtcGetSupportedArchs", (void **) &nvrtc.archs }
  };
  static int loaded = -1;
  size_t i;

  for (i = 0; loaded < 0 && i < sizeof names / sizeof names[0]; i++)
    if ((nvrtc.lib = dlopen (names[i], RTLD_NOW | RTLD_LOCAL)) != NULL)
      loaded = load_symbols (nvrtc.lib, syms, sizeof syms / sizeof syms[0]);
  if (loaded < 0)
    loaded = 0;
  return loaded;
}

/* The newest architecture NVRTC compiles for that is not newer than WANT;
   its oldest one if there is none (WANT 0 asks for that): 70 before
   CUDA 13, 75 since, which dropped Volta.  0 if NVRTC cannot say (no
   CUnit assertion: suite init functions call this too).  */
static int
nvrtc_arch (int want)
{
  int n, archs[64], i, best;

  if (nvrtc.n_archs (&n) != 0 || n < 1 || n > 64 || nvrtc.archs (archs) != 0)
    return 0;
  best = archs[0];
  for (i = 1; i < n; i++)
    if (archs[i] <= want)
      best = archs[i];
  return best;
}

/* PTX of SRC for compute_ARCH, malloc'ed; NULL after a failure that
   prints the source and the log.  */
static char *
nvrtc_compile (const char *src, int arch)
{
  char arch_option[64];
  const char *options[] = { arch_option, "--fmad=false" };
  void *prog = NULL;
  char *out = NULL;
  size_t size = 0;
  int rc;

  snprintf (arch_option, sizeof arch_option, "--gpu-architecture=compute_%d",
	    arch);
  CU_ASSERT_EQUAL_FATAL (nvrtc.create (&prog, src, "flat.cu", 0, NULL, NULL),
			 0);
  rc = nvrtc.compile (prog, 2, options);
  CU_ASSERT_EQUAL_FATAL ((rc == 0 ? nvrtc.ptx_size : nvrtc.log_size)
			 (prog, &size), 0);
  out = calloc (1, size + 1);
  CU_ASSERT_PTR_NOT_NULL_FATAL (out);
  CU_ASSERT_EQUAL ((rc == 0 ? nvrtc.ptx : nvrtc.log) (prog, out), 0);
  if (rc != 0)
    {
      fprintf (stderr, "\n%s\nNVRTC (%s) failed:\n%s\n", src, arch_option,
	       out);
      free (out);
      out = NULL;
    }
  CU_ASSERT_EQUAL (rc, 0);
  CU_ASSERT_EQUAL (nvrtc.destroy (&prog), 0);
  return out;
}

/* ---- CUDA --------------------------------------------------------------- */

typedef unsigned long long cu_ptr;

/* The driver entry points used, by their documented C signatures (handles
   as void *, CUdevice as int, enums as int).  */
static struct
{
  void *lib;
  int dev;
  void *ctx;
  int arch;			/* what NVRTC compiles for */
  int (*init) (unsigned flags);
  int (*device_count) (int *n);
  int (*device_get) (int *dev, int ordinal);
  int (*attribute) (int *value, int attribute, int dev);
  int (*primary_retain) (void **ctx, int dev);
  int (*primary_release) (int dev);
  int (*set_current) (void *ctx);
  int (*module_load) (void **module, const void *image);
  int (*module_unload) (void *module);
  int (*get_function) (void **fn, void *module, const char *name);
  int (*mem_alloc) (cu_ptr *p, size_t size);
  int (*mem_free) (cu_ptr p);
  int (*htod) (cu_ptr dst, const void *src, size_t size);
  int (*dtoh) (void *dst, cu_ptr src, size_t size);
  int (*launch) (void *fn, unsigned gx, unsigned gy, unsigned gz,
		 unsigned bx, unsigned by, unsigned bz, unsigned shared,
		 void *stream, void **params, void **extra);
  int (*synchronize) (void);
} cu;

enum
{
  CU_ATTRIBUTE_CC_MAJOR = 75,	/* CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_* */
  CU_ATTRIBUTE_CC_MINOR = 76
};

static int
cuda_load (void)
{
  const symbol syms[] = {
    { "cuInit", (void **) &cu.init },
    { "cuDeviceGetCount", (void **) &cu.device_count },
    { "cuDeviceGet", (void **) &cu.device_get },
    { "cuDeviceGetAttribute", (void **) &cu.attribute },
    { "cuDevicePrimaryCtxRetain", (void **) &cu.primary_retain },
    { "cuDevicePrimaryCtxRelease_v2", (void **) &cu.primary_release },
    { "cuCtxSetCurrent", (void **) &cu.set_current },
    { "cuModuleLoadData", (void **) &cu.module_load },
    { "cuModuleUnload", (void **) &cu.module_unload },
    { "cuModuleGetFunction", (void **) &cu.get_function },
    { "cuMemAlloc_v2", (void **) &cu.mem_alloc },
    { "cuMemFree_v2", (void **) &cu.mem_free },
    { "cuMemcpyHtoD_v2", (void **) &cu.htod },
    { "cuMemcpyDtoH_v2", (void **) &cu.dtoh },
    { "cuLaunchKernel", (void **) &cu.launch },
    { "cuCtxSynchronize", (void **) &cu.synchronize }
  };

  if (cu.lib == NULL)
    cu.lib = dlopen ("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  return (cu.lib != NULL
	  && load_symbols (cu.lib, syms, sizeof syms / sizeof syms[0]));
}

static void *
cuda_build (const flat_nest *nest)
{
  char err[256];
  char *src = flat_emit_cuda (nest, err, sizeof err), *ptx;
  void *module = NULL;

  if (src == NULL)
    fprintf (stderr, "\nflat_emit_cuda: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (src);
  ptx = nvrtc_compile (src, cu.arch);
  free (src);
  if (ptx == NULL)
    return NULL;
  CU_ASSERT_EQUAL (cu.module_load (&module, ptx), 0);
  free (ptx);
  return module;
}

static void
cuda_release (void *module)
{
  CU_ASSERT_EQUAL (cu.module_unload (module), 0);
}

static void *
cuda_alloc (size_t size, const void *init)
{
  cu_ptr p = 0;

  CU_ASSERT_EQUAL_FATAL (cu.mem_alloc (&p, size), 0);
  if (init != NULL)
    CU_ASSERT_EQUAL (cu.htod (p, init, size), 0);
  return (void *) (uintptr_t) p;
}

static void
cuda_read (void *buf, void *dst, size_t size)
{
  CU_ASSERT_EQUAL (cu.synchronize (), 0);
  CU_ASSERT_EQUAL (cu.dtoh (dst, (cu_ptr) (uintptr_t) buf, size), 0);
}

static void
cuda_free (void *buf)
{
  CU_ASSERT_EQUAL (cu.mem_free ((cu_ptr) (uintptr_t) buf), 0);
}

static void
cuda_launch (void *module, const char *name, const arg_list *args,
	     size_t groups, size_t group_size)
{
  void *params[MAX_ARGS];
  void *fn = NULL;
  int i;

  CU_ASSERT_EQUAL_FATAL (cu.get_function (&fn, module, name), 0);
  for (i = 0; i < args->n; i++)
    params[i] = (void *) args->value[i];
  CU_ASSERT_EQUAL (cu.launch (fn, (unsigned) groups, 1, 1,
			      (unsigned) group_size, 1, 1, 0, NULL, params,
			      NULL), 0);
}

static const runner cuda_runner = {
  cuda_build, cuda_release, cuda_alloc, cuda_read, cuda_free, cuda_launch
};

static int
cuda_suite_init (void)
{
  int n, major, minor;

  if (!nvrtc_load () || !cuda_load () || cu.init (0) != 0
      || cu.device_count (&n) != 0 || n < 1
      || cu.device_get (&cu.dev, 0) != 0
      || cu.attribute (&major, CU_ATTRIBUTE_CC_MAJOR, cu.dev) != 0
      || cu.attribute (&minor, CU_ATTRIBUTE_CC_MINOR, cu.dev) != 0
      || cu.primary_retain (&cu.ctx, cu.dev) != 0
      || cu.set_current (cu.ctx) != 0)
    return 1;
  cu.arch = nvrtc_arch (10 * major + minor);
  if (cu.arch == 0)
    return 1;
  current = &cuda_runner;
  return 0;
}

static int
cuda_suite_cleanup (void)
{
  if (cu.ctx != NULL && cu.primary_release (cu.dev) != 0)
    return 1;
  cu.ctx = NULL;
  return 0;
}

/* Launch geometries: one work-item walking everything, groups smaller and
   larger than the work, and enough groups of 64 to cover TOTAL.  */
static size_t
geometry (int g, size_t total, size_t *group_size)
{
  static const size_t fixed[][2] = { { 1, 1 }, { 3, 4 }, { 50, 32 } };

  if (g < 3)
    {
      *group_size = fixed[g][1];
      return fixed[g][0];
    }
  *group_size = 64;
  return total == 0 ? 1 : (total + 63) / 64;
}

enum { N_GEOMETRIES = 4 };

static int
same_float_bits (float a, float b)
{
  return memcmp (&a, &b, sizeof a) == 0 || (isnan (a) && isnan (b));
}

static int
same_double_bits (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0 || (isnan (a) && isnan (b));
}

static int
close_float (double got, double want, double rel)
{
  return fabs (got - want) <= rel * fabs (want) + 1e-30;
}

/* ---- Run tests (each suite runs them on its back end) ------------------- */

static void
test_run_saxpy (void)
{
  static const int sizes[] = { 0, 1, 7, 64, 1000 };
  flat_nest *nest;
  void *prog;
  size_t si;
  int g;

  nest = load_nest (saxpy_ir);
  prog = current->build (nest);
  for (si = 0; prog != NULL && si < sizeof sizes / sizeof sizes[0]; si++)
    for (g = 0; g < N_GEOMETRIES; g++)
      {
	int n = sizes[si], i, bad = 0;
	float *x = malloc ((size_t) (n + 3) * sizeof *x);
	float *y = malloc ((size_t) (n + 1) * sizeof *y);
	float *want = malloc ((size_t) (n + 1) * sizeof *want);
	float a = 1.25f;
	size_t group, groups = geometry (g, (size_t) n, &group);

	lcg_state = (uint32_t) n;
	for (i = 0; i < n + 3; i++)
	  x[i] = (float) (lcg () % 2000) / 7.0f - 100.0f;
	for (i = 0; i < n; i++)
	  {
	    y[i] = (float) (lcg () % 1000) / 3.0f;
	    want[i] = a * x[i + 3] + y[i];
	  }
	{
	  arg args[] = { INT_ARG ("n", n), FLOAT_ARG ("a", a),
			 MEM_ARG ("x", x + 3, (size_t) n),
			 MEM_ARG ("y", y, (size_t) n) };

	  args[2].lo = 3;
	  run_plan (prog, nest, args, 4, groups, group);
	}
	for (i = 0; i < n; i++)
	  bad += y[i] != want[i];
	CU_ASSERT_EQUAL (bad, 0);
	free (x);
	free (y);
	free (want);
      }
  if (prog != NULL)
    current->release (prog);
  flat_nest_free (nest);
}

static void
test_run_2d (void)
{
  static const int shapes[][2] = { { -3, 4 }, { 0, 5 }, { 5, 0 }, { 2, 1 },
				   { 4, -7 }, { 4, 7 }, { 13, 30 }, { 40, 61 } };
  flat_nest *nest;
  void *prog;
  size_t si;
  int g;

  nest = load_nest (grid2_ir);
  prog = current->build (nest);
  for (si = 0; prog != NULL && si < sizeof shapes / sizeof shapes[0]; si++)
    for (g = 0; g < N_GEOMETRIES; g++)
      {
	int n = shapes[si][0], i, bad = 0;
	long long m = shapes[si][1], w = (m > 0 ? m : 0) + 3, j;
	size_t count = (size_t) (n > 0 ? n : 1) * (size_t) w, k;
	long long *out = malloc (count * sizeof *out);
	long long *want = malloc (count * sizeof *want);
	size_t total = (size_t) (n > 1 ? n - 1 : 0)
	  * (size_t) (m > -2 ? (m + 3) / 2 : 0);
	size_t group, groups = geometry (g, total, &group);

	for (k = 0; k < count; k++)
	  out[k] = want[k] = -1;
	for (i = 1; i < n; i++)
	  for (j = -2; j < m; j += 2)
	    want[i * w + j + 2] = i * 1000LL + j;
	{
	  arg args[] = { INT_ARG ("n", n), INT_ARG ("m", m), INT_ARG ("w", w),
			 MEM_ARG ("out", out, count) };

	  run_plan (prog, nest, args, 4, groups, group);
	}
	for (k = 0; k < count; k++)
	  bad += out[k] != want[k];
	CU_ASSERT_EQUAL (bad, 0);
	free (out);
	free (want);
      }
  if (prog != NULL)
    current->release (prog);
  flat_nest_free (nest);
}

/* One work-item visits the points in linear order: order[i*m+j] == i*m+j
   holds only if the innermost dim varies fastest.  */
static void
test_run_innermost_fastest (void)
{
  enum { N = 5, M = 7 };
  flat_nest *nest;
  void *prog;
  int cnt = 0, order[N * M], k;

  nest = load_nest (order_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), INT_ARG ("m", M),
		     MEM_ARG ("cnt", &cnt, 1), MEM_ARG ("order", order, N * M) };

      run_plan (prog, nest, args, 4, 1, 1);
      CU_ASSERT_EQUAL (cnt, N * M);
      for (k = 0; k < N * M; k++)
	CU_ASSERT_EQUAL (order[k], k);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_narrow (void)
{
  enum { N = 300 };
  flat_nest *nest;
  void *prog;
  uint8_t x[N], y[N], z[7 * N], carry[N];
  int16_t s[N], h[2 * N];
  int i, bad = 0;

  lcg_state = 11;
  for (i = 0; i < N; i++)
    {
      x[i] = (uint8_t) (i < 256 ? (uint32_t) i : lcg ());
      y[i] = (uint8_t) (i % 3 == 0 ? (uint32_t) (255 - i % 256) : lcg ());
      s[i] = (int16_t) ((int) (lcg () % 65536) - 32768);
    }
  nest = load_nest (narrow_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("x", x, N),
		     MEM_ARG ("y", y, N), MEM_ARG ("s", s, N),
		     MEM_ARG ("z", z, 7 * N), MEM_ARG ("h", h, 2 * N),
		     MEM_ARG ("carry", carry, N) };

      run_plan (prog, nest, args, 7, 4, 16);
      for (i = 0; i < N; i++)
	{
	  uint8_t a = x[i], b = y[i], not_a = (uint8_t) ~a;

	  bad += z[7 * i] != (uint8_t) (a + b);
	  bad += z[7 * i + 1] != (uint8_t) (a * b);
	  bad += z[7 * i + 2] != (uint8_t) (a - b);
	  bad += z[7 * i + 3] != (uint8_t) -a;
	  bad += z[7 * i + 4] != not_a;
	  bad += z[7 * i + 5] != (uint8_t) (a << 3);
	  bad += z[7 * i + 6] != (uint8_t) (a / (b > 1 ? b : 1));
	  bad += carry[i] != ((uint8_t) (a + b) < a);
	  bad += h[2 * i] != (int16_t) (s[i] * s[i]);
	  bad += h[2 * i + 1] != (int16_t) (s[i] - 30000);
	}
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_f64 (void)
{
  enum { N = 257 };
  flat_nest *nest;
  void *prog;
  double x[N], y[4 * N], s = 1e-7;
  float f[N];
  int i, bad = 0;

  lcg_state = 5;
  for (i = 0; i < N; i++)
    {
      x[i] = ((double) lcg () - 8e6) / 3.0;
      f[i] = (float) lcg () / 7.0f;
    }
  nest = load_nest (f64_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), FLOAT_ARG ("s", s),
		     MEM_ARG ("x", x, N), MEM_ARG ("f", f, N),
		     MEM_ARG ("y", y, 4 * N) };

      run_plan (prog, nest, args, 5, 3, 32);
      for (i = 0; i < N; i++)
	{
	  double v = x[i];

	  bad += !same_double_bits (y[4 * i], v * 0.1 + s);
	  bad += !same_double_bits (y[4 * i + 1], (double) f[i] / 3.0);
	  bad += !same_double_bits (y[4 * i + 2], (double) (float) (v * 1e-3));
	  bad += !same_double_bits (y[4 * i + 3], v > 0 ? INFINITY : -INFINITY);
	}
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_math (void)
{
  enum { N = 200 };
  flat_nest *nest;
  void *prog;
  float x[N], out[7 * N];
  double d[N], dout[N];
  int i, bad = 0;

  lcg_state = 9;
  for (i = 0; i < N; i++)
    {
      x[i] = (float) (lcg () % 20000) / 512.0f - 19.0f;
      d[i] = (double) (lcg () % 100000) / 1000.0 - 50.0;
    }
  nest = load_nest (math_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("x", x, N),
		     MEM_ARG ("d", d, N), MEM_ARG ("out", out, 7 * N),
		     MEM_ARG ("dout", dout, N) };

      run_plan (prog, nest, args, 5, 7, 8);
      for (i = 0; i < N; i++)
	{
	  float v = x[i];
	  int before = bad;

	  /* Correctly rounded in C and on the devices.  */
	  bad += out[7 * i] != sqrtf (fabsf (v));
	  bad += out[7 * i + 4] != floorf (v);
	  bad += out[7 * i + 5] != fminf (v, 1.0f);
	  bad += out[7 * i + 6] != v / (v + 7.5f);
	  /* Within OpenCL's few ulp of the C library.  */
	  bad += !close_float (out[7 * i + 1], expf (v * 0.25f), 1e-6);
	  bad += !close_float (out[7 * i + 2], powf (fabsf (v), 1.5f), 1e-6);
	  bad += !close_float (out[7 * i + 3], atan2f (v, 2.0f), 1e-6);
	  bad += !close_float (dout[i], exp (d[i] * 0.5), 1e-14);
	  if (bad > before)
	    fprintf (stderr, "\nmath calls at x = %a, d = %a: %a %a %a %a %a "
		     "%a %a, %a\n", v, d[i], out[7 * i], out[7 * i + 1],
		     out[7 * i + 2], out[7 * i + 3], out[7 * i + 4],
		     out[7 * i + 5], out[7 * i + 6], dout[i]);
	}
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

/* The C library's FN at X, Y, Z (as many as it takes, Y converted to
   int where FN takes an int).  */
static double
host_math (void *libm, flat_math fn, double x, double y, double z)
{
  const flat_math_info *mi = &flat_math_table[fn];
  void *f = dlsym (libm, mi->c_name);
  int to_int = mi->arity == 2 && mi->args[1] == FLAT_T_I32;

  CU_ASSERT_PTR_NOT_NULL_FATAL (f);
  if (mi->type == FLAT_T_F32 && to_int)
    return ((float (*) (float, int)) f) ((float) x, (int) y);
  if (to_int)
    return ((double (*) (double, int)) f) (x, (int) y);
  if (mi->type == FLAT_T_F32)
    switch (mi->arity)
      {
      case 1: return ((float (*) (float)) f) ((float) x);
      case 2: return ((float (*) (float, float)) f) ((float) x, (float) y);
      default:
	return ((float (*) (float, float, float)) f) ((float) x, (float) y,
						      (float) z);
      }
  switch (mi->arity)
    {
    case 1: return ((double (*) (double)) f) (x);
    case 2: return ((double (*) (double, double)) f) (x, y);
    default: return ((double (*) (double, double, double)) f) (x, y, z);
    }
}

static void
test_run_all_math (void)
{
  enum { N = 64 };
  char *text;
  flat_nest *nest;
  void *prog;
  void *libm;
  float xf[N];
  double xd[N], out[N * FLAT_N_MATH];
  int i, fn;

  libm = dlopen ("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  CU_ASSERT_PTR_NOT_NULL_FATAL (libm);
  for (i = 0; i < N; i++)
    {
      xf[i] = 0.05f + 0.9f * (float) i / N;
      xd[i] = 0.05 + 0.9 * i / N;
    }
  text = allmath_ir ();
  nest = load_nest (text);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("xf", xf, N),
		     MEM_ARG ("xd", xd, N), MEM_ARG ("out", out, N * FLAT_N_MATH) };

      run_plan (prog, nest, args, 4, 2, 32);
      for (fn = 0; fn < FLAT_N_MATH; fn++)
	{
	  int f32 = flat_math_table[fn].type == FLAT_T_F32, bad = 0;

	  for (i = 0; i < N; i++)
	    {
	      double x = f32 ? (double) xf[i] : xd[i];
	      double y = flat_math_table[fn].args[1] == FLAT_T_I32
			 ? (double) (int) (f32 ? xf[i] * 8.0f : xd[i] * 8.0)
			 : f32 ? (double) (xf[i] * 0.5f) : xd[i] * 0.5;
	      double z = f32 ? (double) (xf[i] + 0.25f) : xd[i] + 0.25;
	      double want = host_math (libm, (flat_math) fn, x, y, z);
	      double got = out[i * FLAT_N_MATH + fn];

	      if (!strncmp (flat_math_table[fn].c_name, "acosh", 5))
		want = host_math (libm, (flat_math) fn, x + 1.0, y, z);

	      /* OpenCL allows a few ulp (16 for pow and erfc in f32).  */
	      bad += !(fabs (got - want) <= (f32 ? 1e-5 : 1e-12) * fabs (want)
		       + (f32 ? 1e-7 : 1e-15));
	    }
	  if (bad > 0)
	    fprintf (stderr, "\n%s: %d results differ\n",
		     flat_math_table[fn].c_name, bad);
	  CU_ASSERT_EQUAL (bad, 0);
	}
      current->release (prog);
    }
  CU_ASSERT_EQUAL (dlclose (libm), 0);
  flat_nest_free (nest);
  free (text);
}

static void
test_run_local_array (void)
{
  enum { N = 100 };
  flat_nest *nest;
  void *prog;
  float x[N], out[N];
  int i, k, bad = 0;

  lcg_state = 3;
  for (i = 0; i < N; i++)
    x[i] = (float) (lcg () % 1000) / 9.0f;
  nest = load_nest (local_array_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("x", x, N),
		     MEM_ARG ("out", out, N) };

      run_plan (prog, nest, args, 3, 2, 16);
      for (i = 0; i < N; i++)
	{
	  float buf[8], acc = 0.0f;

	  for (k = 0; k < 8; k++)
	    buf[k] = x[i] * (float) k;
	  for (k = 7; k > -1; k--)
	    acc = acc * 0.5f + buf[k];
	  bad += out[i] != acc;
	}
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_break (void)
{
  enum { N = 50, M = 40 };
  flat_nest *nest;
  void *prog;
  int a[N * M], pos[N], i, j, t = 950, bad = 0, found = 0;

  lcg_state = 21;
  for (i = 0; i < N * M; i++)
    a[i] = (int) (lcg () % 1000);
  nest = load_nest (search_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), INT_ARG ("m", M), INT_ARG ("t", t),
		     MEM_ARG ("a", a, N * M), MEM_ARG ("pos", pos, N) };

      run_plan (prog, nest, args, 5, 4, 4);
      for (i = 0; i < N; i++)
	{
	  int want = -1;

	  for (j = 0; j < M; j++)
	    if (a[i * M + j] > t)
	      {
		want = j;
		break;
	      }
	  bad += pos[i] != want;
	  found += want >= 0;
	}
      CU_ASSERT_EQUAL (bad, 0);
      /* The data exercise both outcomes.  */
      CU_ASSERT (found > 0 && found < N);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_control (void)
{
  enum { N = 120 };
  flat_nest *nest;
  void *prog;
  int x[N], out[4 * N], i, bad = 0;

  lcg_state = 77;
  for (i = 0; i < N; i++)
    x[i] = (int) (lcg () % 200001) - 100000;
  x[0] = 0;
  nest = load_nest (control_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("x", x, N),
		     MEM_ARG ("out", out, 4 * N) };

      run_plan (prog, nest, args, 3, 5, 8);
      for (i = 0; i < N; i++)
	{
	  int v = x[i], code, steps = 0, digits = 0, r = abs (v);
	  uint32_t c = (uint32_t) (abs (v) + 1);

	  code = v < 0 ? -1 : v % 2 == 0 ? 2 : 1;
	  while (c != 1)
	    {
	      c = c % 2 == 0 ? c >> 1 : c * 3 + 1;
	      steps++;
	    }
	  do
	    {
	      digits++;
	      r /= 10;
	    }
	  while (r > 0);
	  bad += out[4 * i] != code;
	  bad += out[4 * i + 1] != steps;
	  bad += out[4 * i + 2] != digits;
	  bad += out[4 * i + 3] != (v > 0 ? v * 2 : -v);
	}
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_minmax (void)
{
  enum { N = 8 };
  int xi[N] = { 1, -5, 7, 0, -2147483647, 2147483647, 3, -3 };
  int yi[N] = { 2, -6, 7, -1, 5, -2147483647 - 1, -3, 3 };
  flat_nest *nest;
  void *prog;
  float xf[N] = { 1.5f, -0.0f, 0.0f, NAN, 2.0f, -INFINITY, -7.25f, 3.0f };
  float yf[N] = { -1.5f, 0.0f, -0.0f, 1.0f, NAN, 4.0f, -7.5f, 3.0f };
  float of[3 * N];
  int oi[3 * N], i, bad = 0;

  nest = load_nest (minmax_ir);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("xi", xi, N),
		     MEM_ARG ("yi", yi, N), MEM_ARG ("xf", xf, N),
		     MEM_ARG ("yf", yf, N), MEM_ARG ("oi", oi, 3 * N),
		     MEM_ARG ("of", of, 3 * N) };

      run_plan (prog, nest, args, 7, 2, 4);
      for (i = 0; i < N; i++)
	{
	  bad += oi[3 * i] != (xi[i] < yi[i] ? xi[i] : yi[i]);
	  bad += oi[3 * i + 1] != (xi[i] > yi[i] ? xi[i] : yi[i]);
	  bad += oi[3 * i + 2] != (xi[i] < 0 ? -xi[i] : xi[i]);
	  bad += !same_float_bits (of[3 * i], xf[i] < yf[i] ? xf[i] : yf[i]);
	  bad += !same_float_bits (of[3 * i + 1],
				   xf[i] > yf[i] ? xf[i] : yf[i]);
	  bad += !same_float_bits (of[3 * i + 2], fabsf (xf[i]));
	}
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

static void
test_run_constants (void)
{
  enum { N = 6 };
  int x[N] = { 0, 1, 256, -1, 65536, 0 };
  flat_nest *nest;
  void *prog;
  unsigned char b[N];
  long long l[3];
  unsigned long long ul[4];
  int w[2];
  unsigned uw[2];
  signed char c[2];
  float f[6];
  double d[5];
  int flag, i;

  nest = load_nest (consts_ir);
  prog = current->build (nest);
  for (flag = 0; prog != NULL && flag < 2; flag++)
    {
      arg args[] = { INT_ARG ("flag", flag), INT_ARG ("n", N),
		     MEM_ARG ("x", x, N), MEM_ARG ("b", b, N),
		     MEM_ARG ("l", l, 3), MEM_ARG ("ul", ul, 4),
		     MEM_ARG ("w", w, 2), MEM_ARG ("uw", uw, 2),
		     MEM_ARG ("c", c, 2), MEM_ARG ("f", f, 6),
		     MEM_ARG ("d", d, 5) };

      run_plan (prog, nest, args, 11, 1, 8);
      for (i = 0; i < N; i++)
	CU_ASSERT_EQUAL (b[i], flag && x[i] != 0);
      CU_ASSERT_EQUAL (l[0], INT64_MIN);
      CU_ASSERT_EQUAL (l[1], 0);
      CU_ASSERT_EQUAL (l[2], -6442450944LL);
      CU_ASSERT_EQUAL (ul[0], UINT64_MAX);
      CU_ASSERT_EQUAL (ul[1], UINT64_MAX);
      CU_ASSERT_EQUAL (ul[2], 6148914691236517205ULL);
      CU_ASSERT_EQUAL (ul[3], 1);	/* wraps */
      CU_ASSERT_EQUAL (w[0], INT32_MIN);
      CU_ASSERT_EQUAL (w[1], -1);
      CU_ASSERT_EQUAL (uw[0], UINT32_MAX);
      CU_ASSERT_EQUAL (uw[1], 0x0fffffffu);
      CU_ASSERT_EQUAL (c[0], -128);
      CU_ASSERT_EQUAL (c[1], 127);
      CU_ASSERT (same_float_bits (f[0], 0.1f));
      CU_ASSERT (same_float_bits (f[1], INFINITY));
      CU_ASSERT (same_float_bits (f[2], -INFINITY));
      CU_ASSERT (isnan (f[3]));
      CU_ASSERT (same_float_bits (f[4], -0.0f));
      CU_ASSERT (same_float_bits (f[5], 1e-45f));
      CU_ASSERT (same_double_bits (d[0], 0.1));
      CU_ASSERT (same_double_bits (d[1], -INFINITY));
      CU_ASSERT (isnan (d[2]));
      CU_ASSERT (same_double_bits (d[3], 4.9406564584124654e-324));
      CU_ASSERT (same_double_bits (d[4], -1.7976931348623157e308));
    }
  if (prog != NULL)
    current->release (prog);
  flat_nest_free (nest);
}

static void
test_run_two_kernels (void)
{
  enum { N = 77 };
  flat_nest *nest;
  void *prog;
  float x[N], y[N], z[N];
  int i, bad = 0;

  for (i = 0; i < N; i++)
    x[i] = (float) i * 0.75f - 10.0f;
  nest = load_nest (two_ir);
  CU_ASSERT_EQUAL (nest->n_kernels, 2);
  prog = current->build (nest);
  if (prog != NULL)
    {
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("x", x, N),
		     MEM_ARG ("y", y, N), MEM_ARG ("z", z, N) };

      run_plan (prog, nest, args, 4, 3, 8);
      for (i = 0; i < N; i++)
	bad += z[i] != x[i] * 2.0f + x[N - 1 - i] * 2.0f;
      CU_ASSERT_EQUAL (bad, 0);
      current->release (prog);
    }
  flat_nest_free (nest);
}

/* ---- Reductions and scans (each suite runs them on its back end) ------- */

/* Launch shapes, G groups of B, for the segred and segscan protocols (B a
   power of two, G not always one), each run on the sizes of
   shape_sizes.  */
typedef struct shape
{
  size_t groups, group_size;
  int big;			/* also run on BIG iterations */
} shape;

static const shape shapes[] = {
  { 1, 1, 0 }, { 1, 256, 0 }, { 3, 4, 0 }, { 7, 64, 1 }, { 5, 32, 0 },
  { 300, 2, 1 }, { 2, 128, 0 }
};

enum { BIG = 100003, MAX_SIZES = 10 };

/* Empty, tiny, around one group, around all groups, one more: every item
   of a group busy or idle, chunks full, partial or empty.  */
static int
shape_sizes (const shape *sh, int *sizes)
{
  int b = (int) sh->group_size, gb = (int) (sh->groups * sh->group_size);
  int n = 0;

  sizes[n++] = 0;
  sizes[n++] = 1;
  sizes[n++] = 7;
  sizes[n++] = b - 1;
  sizes[n++] = b;
  sizes[n++] = b + 1;
  sizes[n++] = gb - 1;
  sizes[n++] = gb + 1;
  sizes[n++] = 1000;
  if (sh->big)
    sizes[n++] = BIG;
  return n;
}

/* Run ONE on every shape and each of its sizes, with the kernels of TEXT
   (malloc'ed, freed here).  ONE returns the number of wrong results; the
   first shape and size with any is reported.  */
static void
for_each_size (char *text,
	       int (*one) (void *prog, const flat_nest *nest, int n,
			   const shape *sh))
{
  flat_nest *nest;
  void *prog;
  size_t si;
  int reported = 0;

  nest = load_nest (text);
  prog = current->build (nest);
  for (si = 0; prog != NULL && si < sizeof shapes / sizeof shapes[0]; si++)
    {
      int sizes[MAX_SIZES], n_sizes = shape_sizes (&shapes[si], sizes), i;

      for (i = 0; i < n_sizes; i++)
	{
	  int bad = one (prog, nest, sizes[i], &shapes[si]);

	  if (bad > 0 && !reported)
	    fprintf (stderr, "\n%s: %d wrong with n = %d, G = %zu, B = %zu\n",
		     nest->name, bad, sizes[i], shapes[si].groups,
		     shapes[si].group_size);
	  reported |= bad > 0;
	  CU_ASSERT_EQUAL (bad, 0);
	}
    }
  if (prog != NULL)
    current->release (prog);
  flat_nest_free (nest);
  free (text);
}

/* The value of acc NAME after the nest.  */
static const arg *
result (arg *args, int n_args, const char *name)
{
  const arg *a = find_arg (args, n_args, name);

  CU_ASSERT_PTR_NOT_NULL_FATAL (a);
  return a;
}

/* ints_ir on random data, a zero in it for odd N and 12345 for N % 3 ==
   1, so that land and lor go both ways.  */
static int
one_int_reduction (void *prog, const flat_nest *nest, int n, const shape *sh)
{
  int32_t *x = malloc ((size_t) (n + 1) * sizeof *x);
  uint32_t *u = malloc ((size_t) (n + 1) * sizeof *u);
  int64_t sum = 5;
  int32_t lo = 100;
  int16_t hi = -200;
  uint32_t ba = 0xffff7fffu, pr = 3;
  uint8_t bo = 0x40;
  uint64_t bx = 0x123456789ull;
  int all = 1, any = 0, i, bad = 0;

  CU_ASSERT_FATAL (x != NULL && u != NULL);
  lcg_state = (uint32_t) n;
  for (i = 0; i < n; i++)
    {
      x[i] = (int32_t) (lcg () % 60001) - 30000;
      u[i] = lcg () ^ (lcg () << 16);
    }
  if (n % 2 == 1)
    x[n * 2 / 3] = 0;
  if (n % 3 == 1)
    x[n / 2] = 12345;
  for (i = 0; i < n; i++)
    {
      int32_t v = x[i];
      uint32_t w = u[i];

      sum += (int64_t) v * 1000003;
      lo = v < lo ? v : lo;
      hi = (int16_t) v > hi ? (int16_t) v : hi;
      ba &= w | 0xf0f0f0f0u;
      bo |= (uint8_t) (w & 0xffff000fu);
      bx ^= (uint64_t) w << (v & 31);
      all = all && v != 0;
      any = any || v == 12345;
      pr *= w | 1;
    }
  {
    arg args[] = { INT_ARG ("n", n), MEM_ARG ("x", x, (size_t) n),
		   MEM_ARG ("u", u, (size_t) n), INT_ARG ("sum", 5),
		   INT_ARG ("lo", 100), INT_ARG ("hi", -200),
		   INT_ARG ("ba", 0xffff7fff), INT_ARG ("bo", 0x40),
		   INT_ARG ("bx", 0x123456789), INT_ARG ("all", 1),
		   INT_ARG ("any", 0), INT_ARG ("pr", 3) };
    int n_args = sizeof args / sizeof args[0];

    run_plan (prog, nest, args, n_args, sh->groups, sh->group_size);
    bad += result (args, n_args, "sum")->i != sum;
    bad += result (args, n_args, "lo")->i != lo;
    bad += result (args, n_args, "hi")->i != hi;
    bad += (uint32_t) result (args, n_args, "ba")->i != ba;
    bad += (uint8_t) result (args, n_args, "bo")->i != bo;
    bad += (uint64_t) result (args, n_args, "bx")->i != bx;
    bad += result (args, n_args, "all")->i != all;
    bad += result (args, n_args, "any")->i != any;
    bad += (uint32_t) result (args, n_args, "pr")->i != pr;
  }
  free (x);
  free (u);
  return bad;
}

static void
test_run_int_reductions (void)
{
  for_each_size (ints_ir (), one_int_reduction);
}

/* floats_ir: the sum within rounding of a double sum, min and max
   exactly, the product within double rounding, e exactly.  */
static int
one_float_reduction (void *prog, const flat_nest *nest, int n,
		     const shape *sh)
{
  float *x = malloc ((size_t) (n + 1) * sizeof *x);
  int32_t *k = malloc ((size_t) (n + 1) * sizeof *k);
  double s = 0.5, abs_sum = 0.5, lo = 50.0, p = 2.0, e = 0.25;
  float hi = -5000.0f;
  int i, bad = 0;

  CU_ASSERT_FATAL (x != NULL && k != NULL);
  lcg_state = (uint32_t) n + 7;
  for (i = 0; i < n; i++)
    {
      x[i] = (float) ((int) (lcg () % 200001) - 100000) / 1000.0f;
      k[i] = (int32_t) lcg ();
      s += x[i];
      abs_sum += fabs (x[i]);
      lo = x[i] < lo ? x[i] : lo;
      hi = x[i] - 1000.0f > hi ? x[i] - 1000.0f : hi;
      p *= 1.0 + (double) x[i] * 0.0001;
      e += (k[i] & 127) * 0.125;
    }
  {
    arg args[] = { INT_ARG ("n", n), MEM_ARG ("x", x, (size_t) n),
		   MEM_ARG ("k", k, (size_t) n), FLOAT_ARG ("s", 0.5),
		   FLOAT_ARG ("lo", 50.0), FLOAT_ARG ("hi", -5000.0),
		   FLOAT_ARG ("p", 2.0), FLOAT_ARG ("e", 0.25) };
    int n_args = sizeof args / sizeof args[0];

    run_plan (prog, nest, args, n_args, sh->groups, sh->group_size);
    bad += !(fabs (result (args, n_args, "s")->f - s) <= 1e-5 * abs_sum);
    bad += result (args, n_args, "lo")->f != lo;
    bad += result (args, n_args, "hi")->f != hi;
    bad += !close_float (result (args, n_args, "p")->f, p, 1e-12);
    bad += result (args, n_args, "e")->f != e;
  }
  free (x);
  free (k);
  return bad;
}

static void
test_run_float_reductions (void)
{
  for_each_size (floats_ir (), one_float_reduction);
}

/* Exclusive and inclusive prefixes of iscan_ir, from 17, exactly.  */
static int
one_int_scan (void *prog, const flat_nest *nest, int n, const shape *sh)
{
  int32_t *x = malloc ((size_t) (n + 1) * sizeof *x);
  int32_t *ex = malloc ((size_t) (n + 1) * sizeof *ex);
  int32_t *in = malloc ((size_t) (n + 1) * sizeof *in);
  int32_t a = 17;
  int i, bad = 0;

  CU_ASSERT_FATAL (x != NULL && ex != NULL && in != NULL);
  lcg_state = (uint32_t) n + 3;
  for (i = 0; i < n; i++)
    x[i] = (int32_t) (lcg () % 2001) - 1000;
  {
    arg args[] = { INT_ARG ("n", n), MEM_ARG ("x", x, (size_t) n),
		   MEM_ARG ("ex", ex, (size_t) n),
		   MEM_ARG ("in", in, (size_t) n), INT_ARG ("a", 17) };

    run_plan (prog, nest, args, 5, sh->groups, sh->group_size);
    for (i = 0; i < n; i++)
      {
	bad += ex[i] != a;
	a += x[i] * 3 - 1;
	bad += in[i] != a;
      }
    bad += args[4].i != a;
  }
  free (x);
  free (ex);
  free (in);
  return bad;
}

static void
test_run_int_scan (void)
{
  for_each_size (iscan_ir (), one_int_scan);
}

/* mscan_ir: running minima of i16 values from 500, exactly.  */
static int
one_min_scan (void *prog, const flat_nest *nest, int n, const shape *sh)
{
  int32_t *x = malloc ((size_t) (n + 1) * sizeof *x);
  int16_t *ex = malloc ((size_t) (n + 1) * sizeof *ex);
  int16_t *in = malloc ((size_t) (n + 1) * sizeof *in);
  int16_t a = 500;
  int i, bad = 0;

  CU_ASSERT_FATAL (x != NULL && ex != NULL && in != NULL);
  lcg_state = (uint32_t) n + 5;
  for (i = 0; i < n; i++)
    x[i] = (int32_t) (lcg () % 2001) - 1000 + (int32_t) (i % 1000) * 30;
  {
    arg args[] = { INT_ARG ("n", n), MEM_ARG ("x", x, (size_t) n),
		   MEM_ARG ("ex", ex, (size_t) n),
		   MEM_ARG ("in", in, (size_t) n), INT_ARG ("a", 500) };

    run_plan (prog, nest, args, 5, sh->groups, sh->group_size);
    for (i = 0; i < n; i++)
      {
	bad += ex[i] != a;
	a = (int16_t) x[i] < a ? (int16_t) x[i] : a;
	bad += in[i] != a;
      }
    bad += args[4].i != a;
  }
  free (x);
  free (ex);
  free (in);
  return bad;
}

static void
test_run_min_scan (void)
{
  for_each_size (mscan_ir (), one_min_scan);
}

/* fscan_ir from 0.25, within rounding of double prefix sums.  */
static int
one_float_scan (void *prog, const flat_nest *nest, int n, const shape *sh)
{
  float *x = malloc ((size_t) (n + 1) * sizeof *x);
  float *ex = malloc ((size_t) (n + 1) * sizeof *ex);
  float *in = malloc ((size_t) (n + 1) * sizeof *in);
  double a = 0.25, abs_sum = 0.25;
  int i, bad = 0;

  CU_ASSERT_FATAL (x != NULL && ex != NULL && in != NULL);
  lcg_state = (uint32_t) n + 9;
  for (i = 0; i < n; i++)
    x[i] = (float) ((int) (lcg () % 200001) - 100000) / 1000.0f;
  {
    arg args[] = { INT_ARG ("n", n), MEM_ARG ("x", x, (size_t) n),
		   MEM_ARG ("ex", ex, (size_t) n),
		   MEM_ARG ("in", in, (size_t) n), FLOAT_ARG ("a", 0.25) };

    run_plan (prog, nest, args, 5, sh->groups, sh->group_size);
    for (i = 0; i < n; i++)
      {
	bad += !(fabs (ex[i] - a) <= 1e-5 * abs_sum);
	a += x[i];
	abs_sum += fabs (x[i]);
	bad += !(fabs (in[i] - a) <= 1e-5 * abs_sum);
      }
    bad += !(fabs (args[4].f - a) <= 1e-5 * abs_sum);
  }
  free (x);
  free (ex);
  free (in);
  return bad;
}

static void
test_run_float_scan (void)
{
  for_each_size (fscan_ir (), one_float_scan);
}

/* fscan_ir on doubles: two 32-bit words a published value.  */
static char *
dscan_ir (void)
{
  return soac_nest ("dscan", "  param n : i32\n  mem x : f64 read\n"
		    "  mem ex : f64 write\n  mem in : f64 write\n"
		    "  acc a : f64\n", fscan_scan,
		    "    set a = (add a (load x i))\n");
}

/* Element I of the float (SIZE 4) or double array P.  */
static double
real_at (const void *p, size_t size, int i)
{
  return size == 4 ? ((const float *) p)[i] : ((const double *) p)[i];
}

/* A sum of floats or doubles (elements of SIZE bytes, the scan of TEXT)
   scanned twice on the same launch shape gives the same bits (the
   look-back's window fixes every grouping), over enough tickets (B = 32:
   tickets of 512) for blocks 32 apart to chain their inclusive
   prefixes, and within rounding of the sequential sums.  */
static void
scan_same_bits (char *text, size_t size)
{
  enum { N = 600001 };
  const shape sh = { 13, 32, 0 };
  void *x = malloc (N * size), *ex[2], *in[2];
  double total[2], a = 0.25, abs_sum = 0.25;
  flat_nest *nest;
  void *prog;
  int i, r, bad = 0;

  CU_ASSERT_FATAL (x != NULL);
  lcg_state = 77;
  for (i = 0; i < N; i++)
    {
      double v = (double) ((int) (lcg () % 200001) - 100000) / 1000.0;

      if (size == 4)
	((float *) x)[i] = (float) v;
      else
	((double *) x)[i] = v;
    }
  nest = load_nest (text);
  free (text);
  prog = current->build (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (prog);
  for (r = 0; r < 2; r++)
    {
      ex[r] = malloc (N * size);
      in[r] = malloc (N * size);
      CU_ASSERT_FATAL (ex[r] != NULL && in[r] != NULL);
      arg args[] = { INT_ARG ("n", N), MEM_ARG ("x", x, (size_t) N),
		     MEM_ARG ("ex", ex[r], (size_t) N),
		     MEM_ARG ("in", in[r], (size_t) N),
		     FLOAT_ARG ("a", 0.25) };

      run_plan (prog, nest, args, 5, sh.groups, sh.group_size);
      total[r] = args[4].f;
    }
  CU_ASSERT (memcmp (ex[0], ex[1], N * size) == 0);
  CU_ASSERT (memcmp (in[0], in[1], N * size) == 0);
  for (i = 0; i < N; i++)
    {
      bad += !(fabs (real_at (ex[0], size, i) - a) <= 1e-5 * abs_sum);
      a += real_at (x, size, i);
      abs_sum += fabs (real_at (x, size, i));
      bad += !(fabs (real_at (in[0], size, i) - a) <= 1e-5 * abs_sum);
    }
  CU_ASSERT_EQUAL (bad, 0);
  CU_ASSERT (memcmp (&total[0], &total[1], sizeof total[0]) == 0);
  CU_ASSERT (fabs (total[0] - a) <= 1e-5 * abs_sum);
  for (r = 0; r < 2; r++)
    {
      free (ex[r]);
      free (in[r]);
    }
  free (x);
  current->release (prog);
  flat_nest_free (nest);
}

static void
test_float_scan_deterministic (void)
{
  scan_same_bits (fscan_ir (), sizeof (float));
  scan_same_bits (dscan_ir (), sizeof (double));
}

/* rows_ir: a work-item's own reduce and scan, in C's order, so exactly
   what the same loops give here.  */
static void
test_run_rows (void)
{
  static const int widths[] = { 0, 1, 5, 300 };
  enum { N = 37 };
  flat_nest *nest;
  void *prog;
  size_t wi;

  nest = load_nest (rows_ir);
  prog = current->build (nest);
  for (wi = 0; prog != NULL && wi < sizeof widths / sizeof widths[0]; wi++)
    {
      int m = widths[wi], i, j, bad = 0;
      size_t count = (size_t) (N * m + 1);
      float *a = malloc (count * sizeof *a), sums[N];
      int32_t *ai = malloc (count * sizeof *ai);
      int32_t *pre = malloc (count * sizeof *pre);

      CU_ASSERT_FATAL (a != NULL && ai != NULL && pre != NULL);
      lcg_state = (uint32_t) m;
      for (i = 0; i < N * m; i++)
	{
	  a[i] = (float) ((int) (lcg () % 20001) - 10000) / 7.0f;
	  ai[i] = (int32_t) (lcg () % 100000) - 50000;
	}
      {
	arg args[] = { INT_ARG ("n", N), INT_ARG ("m", m),
		       MEM_ARG ("a", a, count - 1),
		       MEM_ARG ("ai", ai, count - 1),
		       MEM_ARG ("sums", sums, N),
		       MEM_ARG ("pre", pre, count - 1) };

	run_plan (prog, nest, args, 6, 3, 8);
      }
      for (i = 0; i < N; i++)
	{
	  float s = 0.5f;
	  int32_t c = 0;

	  for (j = 0; j < m; j++)
	    {
	      s += a[i * m + j];
	      bad += pre[i * m + j] != c;
	      c = ai[i * m + j] > c ? ai[i * m + j] : c;
	    }
	  bad += !same_float_bits (sums[i], s);
	}
      CU_ASSERT_EQUAL (bad, 0);
      free (a);
      free (ai);
      free (pre);
    }
  if (prog != NULL)
    current->release (prog);
  flat_nest_free (nest);
}

/* ---- Source text -------------------------------------------------------- */

/* What the ABI and the dialects promise about the text itself.  */
static void
test_source_text (void)
{
  char err[256];
  flat_nest *saxpy = load_nest (saxpy_ir), *f64 = load_nest (f64_ir);
  char *cl = flat_emit_opencl (saxpy, err, sizeof err);
  char *cu = flat_emit_cuda (saxpy, err, sizeof err);
  char *cl64 = flat_emit_opencl (f64, err, sizeof err);

  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl64);
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "__kernel void flat_k0 (int v_n, "
				  "float v_a, __global const float *v_x, "
				  "long lo_x, __global float *v_y, "
				  "long lo_y, long flat_slice_lo, "
				  "long flat_slice_hi)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "extern \"C\" __global__ void "
				  "flat_k0 (int v_n, float v_a, const float "
				  "*v_x, long long lo_x, float *v_y, "
				  "long long lo_y, long long flat_slice_lo, "
				  "long long flat_slice_hi)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "#pragma OPENCL FP_CONTRACT OFF"));
  CU_ASSERT_PTR_NULL (strstr (cl, "restrict"));
  CU_ASSERT_PTR_NULL (strstr (cu, "restrict"));
  CU_ASSERT_PTR_NULL (strstr (cl, "cl_khr_fp64"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl64, "cl_khr_fp64"));
  CU_ASSERT_PTR_NULL (strstr (cu, "#include"));
  free (cl);
  free (cu);
  free (cl64);
  flat_nest_free (saxpy);
  flat_nest_free (f64);
}

/* The runtime's scratch buffers of an irregular reduction (offsets,
   chunk sums, parts, heads) are restrict in both dialects, the offsets
   const where only read, so that the device compiler may keep their
   stores apart from the nest's loads; the nest's own mems, which may
   alias, never are.  */
static void
test_scratch_restrict (void)
{
  char err[256];
  flat_nest *csr = load_nest (csr_rows_ir);
  char *cl = flat_emit_opencl (csr, err, sizeof err);
  char *cu = flat_emit_cuda (csr, err, sizeof err);

  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "long long *__restrict__ flat_offs, "
				  "long long *__restrict__ flat_tsum)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "const long long *__restrict__ "
				  "flat_offs, float *__restrict__ flat_part0, "
				  "float *__restrict__ flat_head0)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "__global long *restrict flat_offs, "
				  "__global long *restrict flat_tsum)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "__global const long *restrict "
				  "flat_offs, __global float *restrict "
				  "flat_part0, __global float *restrict "
				  "flat_head0)"));
  CU_ASSERT_PTR_NULL (strstr (cu, "restrict__ v_"));
  CU_ASSERT_PTR_NULL (strstr (cl, "restrict v_"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "const int *v_row, "));
  free (cl);
  free (cu);
  flat_nest_free (csr);
}

/* Constructs without a translation are reported, not emitted.  */
static void
test_emit_errors (void)
{
  static const char triangular_ir[] =
    "nest \"tri\" at \"t.c\" 1 {\n"
    "  param n : i32\n"
    "  mem y : f32 write\n"
    "  body {\n"
    "    map i : i32 = 0:i32 .. n step 1:i32 {\n"
    "      map j : i32 = 0:i32 .. i step 1:i32 {\n"
    "        store y[(add (mul i n) j)] = 1:f32\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";
  char err[256] = "";
  size_t size = 1;
  flat_nest *nest = load_nest (triangular_ir);

  CU_ASSERT_PTR_NULL (flat_emit_opencl (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "dim j"));
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_emit_cuda (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "dim j"));
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_package_build (nest, FLAT_BACKEND_CUDA, &size,
					  err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "dim j"));
  flat_nest_free (nest);

  nest = load_nest (saxpy_ir);
  nest->kernels[0]->dims[0].step = nest->kernels[0]->dims[0].ub;
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_emit_opencl (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "step of dim i"));
  flat_nest_free (nest);

  nest = load_nest (saxpy_ir);
  nest->params[0]->name = "n-1";
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_emit_opencl (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "n-1"));
  flat_nest_free (nest);
}

/* The text of the reduction and scan kernels: the protocols' signatures
   (both of a scan's), identities from the constant printer, local arrays,
   barriers, shuffles and atomics in each dialect.  */
static void
test_soac_source_text (void)
{
  char err[256], local[64], shared[64];
  char *floats = floats_ir (), *iscan = iscan_ir ();
  char *fscan_text = fscan_ir ();
  flat_nest *red = load_nest (floats), *scan = load_nest (iscan);
  flat_nest *fscan = load_nest (fscan_text);
  char *cl = flat_emit_opencl (red, err, sizeof err);
  char *cu = flat_emit_cuda (scan, err, sizeof err);
  char *cl_scan = flat_emit_opencl (scan, err, sizeof err);
  char *cl_fscan = flat_emit_opencl (fscan, err, sizeof err);

  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl_scan);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl_fscan);
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "__kernel void flat_k0 (int v_n, "
				  "__global const float *v_x, long lo_x, "
				  "__global const int *v_k, long lo_k, "
				  "float acc_s, double acc_lo, float acc_hi, "
				  "double acc_p, float acc_e, "
				  "long flat_slice_lo, long flat_slice_hi, "
				  "long flat_chunk, "
				  "__global float *flat_part0, "
				  "__global double *flat_part1, "
				  "__global float *flat_part2, "
				  "__global double *flat_part3, "
				  "__global float *flat_part4)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "__kernel void flat_k0_final "
				  "(long flat_n_parts, "
				  "__global float *flat_part0, "
				  "__global float *flat_res0, "
				  "__global double *flat_part1, "
				  "__global double *flat_res1, "));
  snprintf (local, sizeof local, "__local double flat_red3[%d];",
	    FLAT_MAX_GROUP);
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, local));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "float v_s = (-0x0p+0f);"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "double v_lo = ((double) INFINITY);"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "float v_hi = (-INFINITY);"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "double v_p = 0x1p+0;"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "barrier (CLK_LOCAL_MEM_FENCE);"));

  /* An integer sum is scanned in a single pass, whose scan kernel asks
     for 6 resident groups.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "extern \"C\" __global__ void "
				  "flat_k0_pre (long long flat_n, "
				  "unsigned long long *flat_status)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "extern \"C\" __global__ void "
				  "__launch_bounds__ (256, 6) "
				  "flat_k0 (int v_n, const int *v_x, "
				  "long long lo_x, int *v_ex, long long lo_ex, "
				  "int *v_in, long long lo_in, int acc_a, "
				  "long long flat_slice_lo, "
				  "long long flat_slice_hi, "
				  "unsigned long long *flat_status, "
				  "int *flat_res)"));
  snprintf (shared, sizeof shared, "__shared__ int flat_scan[%d];",
	    FLAT_MAX_GROUP);
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, shared));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "__syncthreads ();"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "__shfl_up_sync (flat_mask, "));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "atomicCAS (flat_tiles + "));
  CU_ASSERT_PTR_NOT_NULL (strstr (cu, "atomicAdd ((int *) flat_status, 1)"));
  CU_ASSERT_PTR_NULL (strstr (cu, "barrier"));
  CU_ASSERT_PTR_NULL (strstr (cu, "__local"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_scan, "#pragma OPENCL EXTENSION "
				  "cl_khr_int64_base_atomics : enable"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_scan, "atom_cmpxchg (flat_tiles + "
				  "(2 * flat_tile + 1) * 1 + 0, 0UL, "
				  "flat_k0_tag (flat_incl, 0));"));
  CU_ASSERT_PTR_NULL (strstr (cl_scan, "shfl"));
  /* A float sum is scanned in a single pass too, looking back over a
     fixed window: block aggregates and inclusive prefixes after the
     tickets' aggregates, no inclusive prefix per ticket.  */
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_fscan, "__kernel void flat_k0_pre "
				  "(long flat_n, __global ulong "
				  "*flat_status)"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_fscan, "long flat_nb = "
				  "(flat_n_tiles + 31) / 32;"));
  CU_ASSERT_PTR_NOT_NULL (strstr (cl_fscan, "atom_cmpxchg (flat_tiles + "
				  "(flat_n_tiles + flat_nb + flat_blk) * 1 "
				  "+ 0, 0UL, flat_k0_tag (flat_ib, 0));"));
  CU_ASSERT_PTR_NULL (strstr (cl_fscan, "flat_incl"));
  free (cl);
  free (cu);
  free (cl_scan);
  free (cl_fscan);
  flat_nest_free (red);
  flat_nest_free (scan);
  flat_nest_free (fscan);
  free (floats);
  free (iscan);
  free (fscan_text);
}

/* Reduction and scan kernels whose accumulators break the protocol.  */
static void
test_soac_emit_errors (void)
{
  char err[256] = "";
  char *floats = floats_ir (), *iscan = iscan_ir ();
  flat_nest *nest = load_nest (iscan);
  flat_kernel *k = nest->kernels[0];
  flat_accum *two = flat_accums_new (nest, 2);

  /* A scan of two accumulators.  */
  two[0] = two[1] = k->accs[0];
  k->accs = two;
  k->n_accs = 2;
  CU_ASSERT_PTR_NULL (flat_emit_opencl (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "kernel k0 has 2 accumulators"));
  flat_nest_free (nest);

  /* A reduction without any.  */
  nest = load_nest (floats);
  nest->kernels[0]->n_accs = 0;
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_emit_cuda (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "kernel k0 has 0 accumulators"));
  flat_nest_free (nest);

  /* An operator that is not a reduction's.  */
  nest = load_nest (floats);
  nest->kernels[0]->accs[2].op = FLAT_OP_SUB;
  err[0] = '\0';
  CU_ASSERT_PTR_NULL (flat_emit_opencl (nest, err, sizeof err));
  CU_ASSERT_PTR_NOT_NULL (strstr (err, "accumulator 2"));
  flat_nest_free (nest);
  free (floats);
  free (iscan);
}

/* ---- CUDA through NVRTC ------------------------------------------------- */

/* Every nest compiles for the newest architecture Flat targets and the
   oldest this NVRTC knows.  */
static void
test_cuda_nvrtc (void)
{
  const size_t n_fixed = sizeof all_nests / sizeof all_nests[0];
  const size_t n_soac = sizeof soac_nests / sizeof soac_nests[0];
  size_t i;
  int oldest;

  CU_ASSERT_FATAL (nvrtc_load ());
  oldest = nvrtc_arch (0);
  CU_ASSERT_FATAL (oldest > 0);
  for (i = 0; i < n_fixed + 1 + n_soac; i++)
    {
      char err[256];
      char *made = i < n_fixed ? NULL
	: i == n_fixed ? allmath_ir () : soac_nests[i - n_fixed - 1] ();
      flat_nest *nest = load_nest (made != NULL ? made : all_nests[i]);
      char *src = flat_emit_cuda (nest, err, sizeof err);

      if (src == NULL)
	fprintf (stderr, "\nflat_emit_cuda: %s\n", err);
      CU_ASSERT_PTR_NOT_NULL (src);
      if (src != NULL)
	{
	  free (nvrtc_compile (src, 90));
	  free (nvrtc_compile (src, oldest));
	}
      free (src);
      flat_nest_free (nest);
      free (made);
    }
}

/* ---- Packages ----------------------------------------------------------- */

static uint32_t
read32 (const unsigned char *p)
{
  uint32_t v;

  memcpy (&v, p, sizeof v);
  return v;
}

static void
write32 (unsigned char *p, uint32_t v)
{
  memcpy (p, &v, sizeof v);
}

static unsigned char *
build_package (flat_nest *nest, unsigned backends, size_t *size)
{
  char err[256];
  unsigned char *pkg = flat_package_build (nest, backends, size, err,
					   sizeof err);

  if (pkg == NULL)
    fprintf (stderr, "\nflat_package_build: %s\n", err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (pkg);
  return pkg;
}

static void
test_package_round_trip (void)
{
  char err[256];
  flat_nest *nest = load_nest (saxpy_ir);
  size_t size, size_cl, i;
  unsigned char *pkg = build_package (nest, FLAT_BACKEND_OPENCL
				      | FLAT_BACKEND_CUDA, &size);
  unsigned char *pkg_cl = build_package (nest, FLAT_BACKEND_OPENCL, &size_cl);
  unsigned char *two;
  char *plan = flat_nest_to_string (nest);
  char *cl = flat_emit_opencl (nest, err, sizeof err);
  char *cu = flat_emit_cuda (nest, err, sizeof err);
  char *descs = flat_emit_descriptors (nest);

  CU_ASSERT_PTR_NOT_NULL_FATAL (plan);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cu);
  CU_ASSERT_PTR_NOT_NULL_FATAL (descs);

  /* The header, read by hand: name, location, plan, descriptors, OpenCL
     source and options, CUDA source.  */
  CU_ASSERT_EQUAL (memcmp (pkg, "FLATPKG", 8), 0);
  CU_ASSERT_EQUAL (read32 (pkg + 8), FLAT_PACKAGE_VERSION);
  CU_ASSERT_EQUAL (read32 (pkg + 12), size);
  CU_ASSERT_EQUAL (read32 (pkg + 16), 8);
  CU_ASSERT_EQUAL (read32 (pkg + 20), 0);
  for (i = 0; i < 8; i++)
    CU_ASSERT_EQUAL (read32 (pkg + 24 + 16 * i + 12), 0);
  CU_ASSERT_EQUAL (size % 8, 0);
  CU_ASSERT (size >= 24 + 8 * 16 + strlen (plan) + strlen (cl)
	     + strlen (cu) + strlen (descs));

  CU_ASSERT_EQUAL (flat_package_size (pkg, size), size);
  CU_ASSERT_EQUAL (flat_package_size (pkg, size + 1000), size);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_NAME), "saxpy");
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_LOCATION),
			  "saxpy.c:12");
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_PLAN), plan);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_OPENCL), cl);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_CUDA), cu);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_KERNELS), descs);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_OPENCL_OPTIONS),
			  flat_opencl_build_options);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_CUDA_OPTIONS),
			  "--fmad=false");

  CU_ASSERT_EQUAL (flat_package_size (pkg_cl, size_cl), size_cl);
  CU_ASSERT_EQUAL (read32 (pkg_cl + 16), 6);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg_cl, FLAT_PKG_OPENCL), cl);
  CU_ASSERT_PTR_NULL (flat_package_get (pkg_cl, FLAT_PKG_CUDA));

  /* Packages one after another, walked by size, as in the ELF section.  */
  two = malloc (size + size_cl);
  CU_ASSERT_PTR_NOT_NULL_FATAL (two);
  memcpy (two, pkg_cl, size_cl);
  memcpy (two + size_cl, pkg, size);
  CU_ASSERT_EQUAL (flat_package_size (two, size + size_cl), size_cl);
  CU_ASSERT_EQUAL (flat_package_size (two + size_cl, size), size);
  CU_ASSERT_STRING_EQUAL (flat_package_get (two + size_cl, FLAT_PKG_CUDA),
			  cu);

  free (two);
  free (plan);
  free (cl);
  free (cu);
  free (descs);
  free (pkg);
  free (pkg_cl);
  flat_nest_free (nest);
}

/* A nest that may contract (IR header `contract', set by the plugin
   where the host compilation contracts) lets both backends fuse a * b + c:
   OpenCL's pragma and NVRTC's --fmad, in the package; its plan keeps
   the header.  */
static void
test_emit_contract (void)
{
  static const char header[] = "nest \"saxpy\" at \"saxpy.c\" 12 {\n";
  char err[256], ir[sizeof saxpy_ir + 16];
  flat_nest *nest;
  unsigned char *pkg;
  char *cl, *plan;
  size_t size;

  CU_ASSERT_EQUAL_FATAL (strncmp (saxpy_ir, header, strlen (header)), 0);
  snprintf (ir, sizeof ir, "%s  contract\n%s", header,
	    saxpy_ir + strlen (header));
  nest = load_nest (ir);
  CU_ASSERT_EQUAL (nest->contract, 1);
  cl = flat_emit_opencl (nest, err, sizeof err);
  CU_ASSERT_PTR_NOT_NULL_FATAL (cl);
  CU_ASSERT_PTR_NOT_NULL (strstr (cl, "#pragma OPENCL FP_CONTRACT ON\n"));
  CU_ASSERT_PTR_NULL (strstr (cl, "FP_CONTRACT OFF"));
  CU_ASSERT_STRING_EQUAL (flat_cuda_build_options (nest), "--fmad=true");
  pkg = build_package (nest, FLAT_BACKEND_OPENCL | FLAT_BACKEND_CUDA, &size);
  CU_ASSERT_STRING_EQUAL (flat_package_get (pkg, FLAT_PKG_CUDA_OPTIONS),
			  "--fmad=true");
  plan = flat_nest_to_string (nest);
  CU_ASSERT_PTR_NOT_NULL_FATAL (plan);
  CU_ASSERT_PTR_NOT_NULL (strstr (plan, "{\n  contract\n  param n"));
  free (plan);
  free (pkg);
  free (cl);
  flat_nest_free (nest);
}

/* flat_package_size on the first AVAIL bytes of PKG, copied to a block of
   exactly that size so that a read past it is a real overrun (visible to
   valgrind and ASan).  */
static size_t
size_of_copy (const unsigned char *pkg, size_t avail)
{
  unsigned char *copy = malloc (avail > 0 ? avail : 1);
  size_t size;

  CU_ASSERT_PTR_NOT_NULL_FATAL (copy);
  memcpy (copy, pkg, avail);
  size = flat_package_size (copy, avail);
  free (copy);
  return size;
}

static void
test_package_corrupt (void)
{
  flat_nest *nest = load_nest (saxpy_ir);
  size_t size, avail;
  unsigned char *pkg = build_package (nest, FLAT_BACKEND_OPENCL, &size);
  unsigned char *bad = malloc (size);
  uint32_t n = read32 (pkg + 16), i;
  uint32_t last_off = read32 (pkg + 24 + 16 * (n - 1) + 4);
  uint32_t last_len = read32 (pkg + 24 + 16 * (n - 1) + 8);

  CU_ASSERT_PTR_NOT_NULL_FATAL (bad);
  CU_ASSERT_EQUAL (size_of_copy (pkg, size), size);
  CU_ASSERT_EQUAL (flat_package_size (NULL, 100), 0);

  /* Truncated anywhere.  */
  for (avail = 0; avail < size; avail++)
    CU_ASSERT_EQUAL (size_of_copy (pkg, avail), 0);

#define CORRUPT(STMT)					\
  do							\
    {							\
      memcpy (bad, pkg, size);				\
      STMT;						\
      CU_ASSERT_EQUAL (size_of_copy (bad, size), 0);	\
    }							\
  while (0)

  CORRUPT (bad[0] = 'G');			/* magic */
  CORRUPT (bad[7] = ' ');			/* magic's NUL */
  CORRUPT (write32 (bad + 8, FLAT_PACKAGE_VERSION + 1)); /* version */
  CORRUPT (write32 (bad + 8, FLAT_PACKAGE_VERSION - 1));
  /* Another version is named as such.  */
  {
    char why[200] = "";

    CU_ASSERT_EQUAL (flat_package_other_version (pkg, size, why,
						 sizeof why), 0);
    memcpy (bad, pkg, size);
    write32 (bad + 8, FLAT_PACKAGE_VERSION + 1);
    CU_ASSERT_EQUAL (flat_package_other_version (bad, size, why,
						 sizeof why), 1);
    CU_ASSERT_PTR_NOT_NULL (strstr (why, "rebuild the program"));
    bad[0] = 'G';
    CU_ASSERT_EQUAL (flat_package_other_version (bad, size, why,
						 sizeof why), 0);
  }
  CORRUPT (write32 (bad + 12, (uint32_t) size + 8));	/* size > avail */
  CORRUPT (write32 (bad + 12, (uint32_t) size - 4));	/* not 8-aligned */
  CORRUPT (write32 (bad + 12, 16));		/* smaller than the header */
  CORRUPT (write32 (bad + 16, 0xffffffffu));	/* table past the end */
  CORRUPT (write32 (bad + 16, (uint32_t) (size - 24) / 16 + 1));
  for (i = 0; i < n; i++)
    {
      unsigned char *e = bad + 24 + 16 * i;

      CORRUPT (write32 (e + 4, (uint32_t) size));	/* offset at the end */
      CORRUPT (write32 (e + 4, 0xfffffff0u));		/* offset far out */
      CORRUPT (write32 (e + 4, 8));			/* inside the header */
      CORRUPT (write32 (e + 8, 0));			/* empty */
      CORRUPT (write32 (e + 8, 0xffffffffu));		/* length overflows */
      CORRUPT (write32 (e + 8, (uint32_t) size - read32 (e + 4) + 1));
      CORRUPT (bad[read32 (e + 4) + read32 (e + 8) - 1] = 'x');	/* NUL */
    }
  /* A section ending exactly at the end of the blob is fine.  */
  memcpy (bad, pkg, size);
  memset (bad + last_off + last_len, 'p', size - last_off - last_len);
  write32 (bad + 24 + 16 * (n - 1) + 8, (uint32_t) (size - last_off));
  bad[size - 1] = '\0';
  CU_ASSERT_EQUAL (size_of_copy (bad, size), size);
#undef CORRUPT

  free (bad);
  free (pkg);
  flat_nest_free (nest);
}

/* ---- Registration ------------------------------------------------------- */

static void
add_run_tests (CU_pSuite suite)
{
  if (suite == NULL)
    return;
  CU_add_test (suite, "saxpy, sizes and launch shapes", test_run_saxpy);
  CU_add_test (suite, "2-D kernel", test_run_2d);
  CU_add_test (suite, "innermost dim fastest", test_run_innermost_fastest);
  CU_add_test (suite, "narrow integers wrap", test_run_narrow);
  CU_add_test (suite, "f64", test_run_f64);
  CU_add_test (suite, "math calls", test_run_math);
  CU_add_test (suite, "every math function", test_run_all_math);
  CU_add_test (suite, "local array", test_run_local_array);
  CU_add_test (suite, "loop with break", test_run_break);
  CU_add_test (suite, "if, while, do-while, select", test_run_control);
  CU_add_test (suite, "min, max, abs", test_run_minmax);
  CU_add_test (suite, "constants and bool", test_run_constants);
  CU_add_test (suite, "two kernels", test_run_two_kernels);
  CU_add_test (suite, "integer reductions", test_run_int_reductions);
  CU_add_test (suite, "float reductions", test_run_float_reductions);
  CU_add_test (suite, "integer scan", test_run_int_scan);
  CU_add_test (suite, "min scan", test_run_min_scan);
  CU_add_test (suite, "float scan", test_run_float_scan);
  CU_add_test (suite, "float and double scans, the same bits twice",
	       test_float_scan_deterministic);
  CU_add_test (suite, "reduce and scan in a work-item", test_run_rows);
}

void
flat_test_register_codegen (void)
{
  CU_pSuite other;

  add_run_tests (unit_add_suite ("codegen/opencl", opencl_suite_init,
				 opencl_suite_cleanup, NEED_OPENCL));
  add_run_tests (unit_add_suite ("codegen/cuda", cuda_suite_init,
				 cuda_suite_cleanup, NEED_CUDA));
  other = CU_add_suite ("codegen", NULL, NULL);
  if (other == NULL)
    return;
  CU_add_test (other, "source text", test_source_text);
  CU_add_test (other, "scratch buffers restrict, the nest's mems not",
	       test_scratch_restrict);
  CU_add_test (other, "untranslatable nests", test_emit_errors);
  CU_add_test (other, "reduction and scan source text",
	       test_soac_source_text);
  CU_add_test (other, "untranslatable reductions and scans",
	       test_soac_emit_errors);
  unit_add_test (other, "CUDA through NVRTC", test_cuda_nvrtc, NEED_NVRTC);
  CU_add_test (other, "package round trip", test_package_round_trip);
  CU_add_test (other, "contraction where the host contracts",
	       test_emit_contract);
  CU_add_test (other, "corrupt packages", test_package_corrupt);
}
