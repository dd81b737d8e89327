/* motion_impl.h -- private to the motion files (motion.c, motion_layer.c, motion_project.c,
 * motion_integrate.c, motion_post.c): what they share beyond motion.h. */
#ifndef VM_MOTION_IMPL_H
#define VM_MOTION_IMPL_H

#include "reference/motion.h"

/* the tape inputs t | q | qdot | p (lambda and w stay 0: the Hessian blocks are not used here) */
void vm_motion_set_inputs (vm_motion *mo, double t, const double *q, const double *qdot);
/* one block at the inputs set: its outputs into its field buffers; the tape's status */
int vm_point_block_eval (vm_point_block *pb, const double *const *in, const int *inc);
/* motion_post.c: multipliers (nm per point), energy, residuals, power and drift of the npts stored
 * points of sol (state length ny); a failed allocation sets VM_ENOMEM unless the run failed */
void vm_motion_post_process (vm_motion *mo, const vm_motion_opts *o, vm_motion_sol *sol, int nm,
                             int ny);
/* motion_post.c: the multipliers (nm per point) at the nout output points of sol (NaN where the
 * reaction cannot be computed); a failed allocation sets VM_ENOMEM unless the run failed */
void vm_motion_post_output (vm_motion *mo, vm_motion_sol *sol, int nm, int ny);

#endif
