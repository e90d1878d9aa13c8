/* IR expressions written the way a C programmer reads them, for the
   Par expressions and thread counts that flat-tune --list shows.  The IR
   text form is prefix and fully typed,

     (mul (cast i64 n) (max (cast i64 m) 0:i64))   becomes   n * max(m, 0)

   Operators get C's precedence and left associativity, so parentheses
   appear only where C needs them; min, max and abs are written as calls.
   Par expressions are i64 computed from params of any integer type, so the
   widening casts the lifter inserts are noise: a cast to i64 of a signed
   or narrower integer keeps its value and is left out.  Every other cast
   is written as C writes it, `(unsigned int) x`.  */

#include "tune.h"

#include <inttypes.h>

/* C's precedence levels, loosest first.  */
enum
{
  PREC_SELECT = 3,
  PREC_LOR,
  PREC_LAND,
  PREC_BOR,
  PREC_BXOR,
  PREC_BAND,
  PREC_EQUALITY,
  PREC_RELATIONAL,
  PREC_SHIFT,
  PREC_ADDITIVE,
  PREC_MULTIPLICATIVE,
  PREC_UNARY,
  PREC_PRIMARY
};

static int
binary_prec (flat_op op)
{
  switch (op)
    {
    case FLAT_OP_MUL:
    case FLAT_OP_DIV:
    case FLAT_OP_MOD:
      return PREC_MULTIPLICATIVE;
    case FLAT_OP_ADD:
    case FLAT_OP_SUB:
      return PREC_ADDITIVE;
    case FLAT_OP_SHL:
    case FLAT_OP_SHR:
      return PREC_SHIFT;
    case FLAT_OP_LT:
    case FLAT_OP_LE:
    case FLAT_OP_GT:
    case FLAT_OP_GE:
      return PREC_RELATIONAL;
    case FLAT_OP_EQ:
    case FLAT_OP_NE:
      return PREC_EQUALITY;
    case FLAT_OP_BAND:
      return PREC_BAND;
    case FLAT_OP_BXOR:
      return PREC_BXOR;
    case FLAT_OP_BOR:
      return PREC_BOR;
    case FLAT_OP_LAND:
      return PREC_LAND;
    case FLAT_OP_LOR:
      return PREC_LOR;
    default:
      return PREC_PRIMARY;	/* min, max: written as calls */
    }
}

/* Does a cast of E to TYPE leave E's value as it is?  */
static int
value_preserving_cast (flat_type type, const flat_expr *e)
{
  const flat_type_info *to = &flat_type_table[type];
  const flat_type_info *from = &flat_type_table[e->type];

  return type == FLAT_T_I64 && !from->is_float
    && (from->is_signed || from->size < to->size);
}

/* The expression a cast-free reader sees in place of E.  */
static const flat_expr *
strip (const flat_expr *e)
{
  while (e && e->kind == FLAT_E_CAST
	 && value_preserving_cast (e->type, e->u.cast))
    e = e->u.cast;
  return e;
}

/* The precedence of E as printed (E stripped).  */
static int
prec_of (const flat_expr *e)
{
  switch (e->kind)
    {
    case FLAT_E_CONST:
      if (flat_type_table[e->type].is_float)
	return e->u.c.f < 0 ? PREC_UNARY : PREC_PRIMARY;
      return e->type != FLAT_T_U64 && e->u.c.i < 0 ? PREC_UNARY
	: PREC_PRIMARY;
    case FLAT_E_BINARY:
      return binary_prec (e->u.op.op);
    case FLAT_E_UNARY:
      return e->u.op.op == FLAT_OP_ABS ? PREC_PRIMARY : PREC_UNARY;
    case FLAT_E_CAST:
      return PREC_UNARY;
    case FLAT_E_SELECT:
      return PREC_SELECT;
    default:
      return PREC_PRIMARY;
    }
}

static void print_prec (FILE *out, const flat_expr *e, int min_prec);

static void
print_const (FILE *out, const flat_expr *e)
{
  if (e->type == FLAT_T_BOOL)
    fputs (e->u.c.i ? "true" : "false", out);
  else if (flat_type_table[e->type].is_float)
    fprintf (out, "%g", e->u.c.f);
  else if (e->type == FLAT_T_U64)
    fprintf (out, "%" PRIu64, e->u.c.u);
  else
    fprintf (out, "%" PRId64, e->u.c.i);
}

/* FN(ARGS...) */
static void
print_call (FILE *out, const char *fn, const flat_expr *const *args, int n)
{
  fprintf (out, "%s(", fn);
  for (int k = 0; k < n; k++)
    {
      if (k > 0)
	fputs (", ", out);
      print_prec (out, args[k], PREC_SELECT);
    }
  fputc (')', out);
}

/* E, in parentheses if its own precedence is below MIN_PREC.  */
static void
print_prec (FILE *out, const flat_expr *e, int min_prec)
{
  int prec;

  e = strip (e);
  prec = prec_of (e);
  if (prec < min_prec)
    fputc ('(', out);
  switch (e->kind)
    {
    case FLAT_E_CONST:
      print_const (out, e);
      break;
    case FLAT_E_VAR:
      fputs (e->u.var->name, out);
      break;
    case FLAT_E_UNARY:
      if (e->u.op.op == FLAT_OP_ABS)
	print_call (out, "abs", (const flat_expr *const *) &e->u.op.a, 1);
      else
	{
	  /* "-(-n)", never "--n".  */
	  fputs (flat_op_table[e->u.op.op].c_spelling, out);
	  print_prec (out, e->u.op.a, PREC_UNARY + 1);
	}
      break;
    case FLAT_E_BINARY:
      if (prec == PREC_PRIMARY)
	{
	  const flat_expr *args[2] = { e->u.op.a, e->u.op.b };

	  print_call (out, flat_op_table[e->u.op.op].ir_name, args, 2);
	}
      else
	{
	  print_prec (out, e->u.op.a, prec);
	  fprintf (out, " %s ", flat_op_table[e->u.op.op].c_spelling);
	  print_prec (out, e->u.op.b, prec + 1);
	}
      break;
    case FLAT_E_CAST:
      fprintf (out, "(%s) ", flat_type_table[e->type].c_name);
      print_prec (out, e->u.cast, PREC_UNARY);
      break;
    case FLAT_E_SELECT:
      print_prec (out, e->u.select.cond, PREC_LOR);
      fputs (" ? ", out);
      print_prec (out, e->u.select.a, PREC_SELECT);
      fputs (" : ", out);
      print_prec (out, e->u.select.b, PREC_SELECT);
      break;
    case FLAT_E_CALL:
      print_call (out, flat_math_table[e->u.call.fn].c_name,
		  (const flat_expr *const *) e->u.call.args,
		  flat_math_table[e->u.call.fn].arity);
      break;
    case FLAT_E_LOAD:
      fprintf (out, "%s[", e->u.load.mem->name);
      print_prec (out, e->u.load.index, PREC_SELECT);
      fputc (']', out);
      break;
    case FLAT_E_USER:		/* never in a Par expression */
    case FLAT_E_FIELD:
      fputs ("(a declared reduction's value)", out);
      break;
    }
  if (prec < min_prec)
    fputc (')', out);
}

void
tune_print_infix (FILE *out, const flat_expr *e)
{
  print_prec (out, e, PREC_SELECT);
}
