/* The nests of the unit tests of multi-version plans, in IR text, shared
   by test_plan.c (the plan interpreter on a fake device) and
   test_plan_run.c (flat_run on OpenCL).  Each kernel of a nest computes
   the same results as the others and as the nest's body, which the
   tests run as the original loop; the mv nests also write a tag of their
   own, so the arrays show which version ran:

     guard "mv.0" host (n)
       guard "mv.1" top (2n)            launch k0       v[i] = 0
       else guard "mv.2" intra (n)      launch k1       v[i] = 1
				   else launch k2       v[i] = 2
     else host                                          v[i] = -1  */

#ifndef FLAT_UNIT_PLAN_NESTS_H
#define FLAT_UNIT_PLAN_NESTS_H

#define MV_RANGE "i : i32 = 0:i32 .. n step 1:i32"
/* y[i] = 2 x[i] and the tag of the version into v[i] (-1: the host).  */
#define MV_BODY(tag) \
  "    store y[i] = (mul (load x i) 2:i32)\n" \
  "    store v[i] = " tag ":i32\n"
#define MV_HEAD(name) \
  "nest \"" name "\" at \"" name ".c\" 3 {\n" \
  "  param n : i32\n" \
  "  mem x : i32 read\n" \
  "  mem y : i32 write\n" \
  "  mem v : i32 write\n" \
  "  body {\n" \
  "    map " MV_RANGE " {\n" MV_BODY ("-1") "    }\n" \
  "  }\n" \
  "  kernel k0 segmap grid (" MV_RANGE ") {\n" MV_BODY ("0") "  }\n" \
  "  kernel k1 segmap grid (" MV_RANGE ") {\n" MV_BODY ("1") "  }\n" \
  "  kernel k2 segmap grid (" MV_RANGE ") {\n" MV_BODY ("2") "  }\n"

/* The three versions of the paper's rule G3 and the host.  */
static const char mv_ir[] =
  MV_HEAD ("mv")
  "  plan {\n"
  "    guard \"mv.0\" host (cast i64 n) {\n"
  "      guard \"mv.1\" top (mul (cast i64 n) 2:i64) {\n"
  "        launch k0\n"
  "      } else {\n"
  "        guard \"mv.2\" intra (cast i64 n) {\n"
  "          launch k1\n"
  "        } else {\n"
  "          launch k2\n"
  "        }\n"
  "      }\n"
  "    } else {\n"
  "      host\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A plan if (rule G8): k0 below n = 500, k1 from there on.  */
static const char branch_ir[] =
  MV_HEAD ("branch")
  "  plan {\n"
  "    guard \"branch.0\" host (cast i64 n) {\n"
  "      if (lt n 500:i32) {\n"
  "        launch k0\n"
  "      } else {\n"
  "        launch k1\n"
  "      }\n"
  "    } else {\n"
  "      host\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Two launches on the same arrays: y = 2x, then y = y + 1.  */
static const char two_ir[] =
  "nest \"two\" at \"two.c\" 4 {\n"
  "  param n : i32\n"
  "  mem x : i32 read\n"
  "  mem y : i32 read write\n"
  "  body {\n"
  "    map " MV_RANGE " {\n"
  "      store y[i] = (add (mul (load x i) 2:i32) 1:i32)\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (" MV_RANGE ") {\n"
  "    store y[i] = (mul (load x i) 2:i32)\n"
  "  }\n"
  "  kernel k1 segmap grid (" MV_RANGE ") {\n"
  "    store y[i] = (add (load y i) 1:i32)\n"
  "  }\n"
  "  plan {\n"
  "    guard \"two.0\" host (cast i64 n) {\n"
  "      launch k0\n"
  "      launch k1\n"
  "    } else {\n"
  "      host\n"
  "    }\n"
  "  }\n"
  "}\n";

/* A host-level loop over plan index t (rule G7) around a guard that
   depends on it: y[t*n + i] = t, and the version's tag into v[t*n + i].  */
#define LP_INDEX "(add (mul t n) i)"
#define LP_BODY(tag) \
  "    store y[" LP_INDEX "] = t\n" \
  "    store v[" LP_INDEX "] = " tag ":i32\n"
static const char loop_ir[] =
  "nest \"lp\" at \"lp.c\" 5 {\n"
  "  param n : i32\n"
  "  param s : i32\n"
  "  mem y : i32 write\n"
  "  mem v : i32 write\n"
  "  index t : i32\n"
  "  body {\n"
  "    map " MV_RANGE " {\n"
  "      loop t : i32 = 0:i32 .. s step 1:i32 {\n"
  LP_BODY ("-1")
  "      }\n"
  "    }\n"
  "  }\n"
  "  kernel k0 segmap grid (" MV_RANGE ") {\n" LP_BODY ("0") "  }\n"
  "  kernel k1 segmap grid (" MV_RANGE ") {\n" LP_BODY ("1") "  }\n"
  "  plan {\n"
  "    guard \"lp.0\" host (mul (cast i64 n) (cast i64 s)) {\n"
  "      loop t : i32 = 0:i32 .. s step 1:i32 {\n"
  "        guard \"lp.1\" intra (cast i64 t) {\n"
  "          launch k0\n"
  "        } else {\n"
  "          launch k1\n"
  "        }\n"
  "      }\n"
  "    } else {\n"
  "      host\n"
  "    }\n"
  "  }\n"
  "}\n";

/* Row sums y[i] = x[i*m] + ... + x[i*m + m-1] in the three versions of
   rule G9: a sequential reduction per work-item (k0), a work-group per
   row (k1, level GROUP), and a segmented segred (k2).  LOCAL is a
   declaration of shared local memory in k1.  */
#define RS_RANGES MV_RANGE ", k : i32 = 0:i32 .. m step 1:i32"
#define RS_ADD "set s = (add s (load x (add (mul i m) k)))\n"
#define RS_IR(local) \
  "nest \"rs\" at \"rs.c\" 6 {\n" \
  "  param n : i32\n" \
  "  param m : i32\n" \
  "  mem x : f32 read\n" \
  "  mem y : f32 write\n" \
  "  body {\n" \
  "    map " MV_RANGE " {\n" \
  "      let s : f32 = 0x0p+0:f32\n" \
  "      reduce k : i32 = 0:i32 .. m step 1:i32 with (add s) {\n" \
  "        " RS_ADD \
  "      }\n" \
  "      store y[i] = s\n" \
  "    }\n" \
  "  }\n" \
  "  kernel k0 segmap grid (" MV_RANGE ") {\n" \
  "    let s : f32 = 0x0p+0:f32\n" \
  "    reduce k : i32 = 0:i32 .. m step 1:i32 with (add s) {\n" \
  "      " RS_ADD \
  "    }\n" \
  "    store y[i] = s\n" \
  "  }\n" \
  "  kernel k1 segmap group (" MV_RANGE ") threads (cast i64 m) {\n" \
  local \
  "    let s : f32 = 0x0p+0:f32\n" \
  "    segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s) {\n" \
  "      " RS_ADD \
  "    }\n" \
  "    store y[i] = s\n" \
  "  }\n" \
  "  kernel k2 segred grid (" RS_RANGES ") segments 1 with (add s) pre {\n" \
  "    let s : f32 = 0x0p+0:f32\n" \
  "  } body {\n" \
  "    " RS_ADD \
  "  } post {\n" \
  "    store y[i] = s\n" \
  "  }\n" \
  "  plan {\n" \
  "    guard \"rs.0\" host (mul (cast i64 n) (cast i64 m)) {\n" \
  "      guard \"rs.1\" top (cast i64 n) {\n" \
  "        launch k0\n" \
  "      } else {\n" \
  "        guard \"rs.2\" intra (mul (cast i64 n) (cast i64 m)) {\n" \
  "          launch k1\n" \
  "        } else {\n" \
  "          launch k2\n" \
  "        }\n" \
  "      }\n" \
  "    } else {\n" \
  "      host\n" \
  "    }\n" \
  "  }\n" \
  "}\n"

static const char rs_ir[] = RS_IR ("");
/* 80000 bytes of local memory in k1, and 32000000: more than any device
   has (PoCL gives a CPU core's L2 cache, 512 KiB to a few MiB).  */
static const char rs_big_ir[] = RS_IR ("    let t : f32[20000]\n");
static const char rs_huge_ir[] = RS_IR ("    let t : f32[8000000]\n");

#endif /* FLAT_UNIT_PLAN_NESTS_H */
