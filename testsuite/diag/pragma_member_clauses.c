/* Diagnostic: members in clauses.  A loop's copyin, copyout, copy and
   create take a member's section (`copyin(v->data[0:n])'); a data region
   and an update keep arrays by variable, and private takes variables:
   there a member is an error that says where members go.  */

typedef struct
{
  int n;
  float *data;
} vec;

void
twice (vec *v, float *out)
{
#pragma flat data copy(v->data[0:v->n]) /* flat-error "'v->data' is a member: '#pragma flat data' takes members only in the copyin, copyout, copy and create clauses of a loop" */
  {
#pragma flat map copyin(v->data[0:v->n])
    for (int i = 0; i < v->n; i++)
      out[i] = 2.0f * v->data[i];
  }
#pragma flat update host(v->data[0:1]) /* flat-error "'v->data' is a member" */
#pragma flat map copyin(v->data[0:v->n]) copyout(out[0:v->n])
  for (int i = 0; i < v->n; i++)
    out[i] = v->data[i] + 1.0f;
#pragma flat map copyin(v->n[0:1]) /* flat-error "'v->n' in '#pragma flat map' is neither a pointer nor an array" */
  for (int i = 0; i < v->n; i++)
    out[i] = 0.0f;
}
