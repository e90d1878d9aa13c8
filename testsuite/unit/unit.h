/* The CUnit suites of Flat's unit tests, one registration function per
   area (each in test_<area>.c), called by main.c.  */

#ifndef FLAT_UNIT_H
#define FLAT_UNIT_H

void flat_test_register_ir (void);
void flat_test_register_pragmas (void);
void flat_test_register_codegen (void);
void flat_test_register_codegen_intra (void);
void flat_test_register_runtime (void);
void flat_test_register_flatten (void);
void flat_test_register_privatize (void);
void flat_test_register_cuda (void);
void flat_test_register_data (void);
void flat_test_register_plan (void);
void flat_test_register_plan_run (void);
void flat_test_register_combiner (void);
void flat_test_register_sections (void);
void flat_test_register_host_parallel (void);
void flat_test_register_staging (void);
void flat_test_register_package (void);

#endif /* FLAT_UNIT_H */
