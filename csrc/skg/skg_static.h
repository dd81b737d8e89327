/* skg_static.h -- the static part of a reduced plan (skg_static.c; vm_skg_plan in skg_types.h):
 * the Hessian entries that depend on no point variable, summed once per window.  Private to the
 * discrete SKG action.  Plain C99. */
#ifndef VM_SKG_STATIC_H
#define VM_SKG_STATIC_H

#include "skg/skg_types.h"

/* The static part of a reduced plan for the current window (skg_static.c; skg.h, vm_skg_plan):
 * the masks at the first call, then, when p->tmpl_window != s->window, the column and node ranges
 * and the template's contributors; *fresh = 1 when the template (p->tmpl) is then to be summed
 * anew (skg_eval.c, static_template), 0 otherwise.  VM_OK or VM_ENOMEM. */
int vm_skg_static_prepare (const vm_skg *s, vm_skg_plan *p, int *fresh);

#endif
