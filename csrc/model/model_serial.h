/* model_serial.h -- a compiled model (vm_mech, vm_ode) to and from one flat byte array.
 *
 * mechsys and odesys parse and check the formulas once (vm_mech_build, vm_ode_build) and keep the
 * result in the system struct as a byte array (a "blob"); every solver loads the blob instead of
 * parsing the text again, as CasADi serializes a compiled Function and never parses it again.
 *
 * A blob holds the texts the model was compiled from (names and formulas, so that a caller can
 * detect formulas edited after the compilation, and so that messages can quote them), the
 * expression graph exactly as the build left it (every node, in order: loading replays them, so
 * node ids and every later derivative are the ones a new build would give) and the root node ids.
 * It is written in the machine's byte order with a header (magic, version, kind, byte-order mark,
 * total length) and a 64-bit FNV-1a checksum of everything after the header.
 *
 * The loaders trust nothing: a blob may come from a user's struct, edited or truncated.  They check
 * the header, the length and the checksum, every count against its limit and against the bytes
 * left, every text (length, no NUL byte), every node (a graph operation code, children that refer
 * only to earlier nodes, variable indices inside the layout, no node stored twice) and every root
 * (an existing node).  Any failure returns VM_EARG (VM_ENOMEM when memory runs out) and leaves the
 * outputs empty; they never read outside the blob.  Cost: linear in the blob's length. */
#ifndef VM_MODEL_SERIAL_H
#define VM_MODEL_SERIAL_H

#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

/* The texts of a loaded model: d (or o for a first-order system) points into the storage. */
typedef struct {
  vm_mech_desc d;
  char *store;                 /* every text, NUL-terminated, one after the other */
  const char **ptr;            /* the pointer arrays of d (coordinates, parameters, ...) */
  vm_contact_desc *con;
} vm_mech_text;

typedef struct {
  vm_ode_desc d;
  char *store;
  const char **ptr;
} vm_ode_text;

void vm_mech_text_free (vm_mech_text *t);
void vm_ode_text_free (vm_ode_text *t);

/* Serialize model m, built by vm_mech_build from description d, before any block was compiled
 * from it (the graph is saved as the build left it).  *blob (malloc'd, the caller frees it) and
 * *len on VM_OK; VM_EARG when m and d do not match, VM_ENOMEM. */
int vm_mech_save (const vm_mech *m, const vm_mech_desc *d, uint8_t **blob, size_t *len);

/* Load a blob of vm_mech_save.  m may be NULL to read and check the texts only (a cheap test of
 * whether a system's formulas are the compiled ones); t may be NULL when the texts are not
 * wanted.  On VM_OK the caller frees *m (vm_mech_free) and *t (vm_mech_text_free). */
int vm_mech_load (const uint8_t *blob, size_t len, vm_mech *m, vm_mech_text *t);

/* The same for first-order systems (vm_ode_build's model and description). */
int vm_ode_save (const vm_ode *o, const vm_ode_desc *d, uint8_t **blob, size_t *len);
int vm_ode_load (const uint8_t *blob, size_t len, vm_ode *o, vm_ode_text *t);

/* Whether two descriptions have the same names and formulas: NULL when they do, else the name of
 * the first part that differs ("coordinates", "parameter_names", "lagrangian", "forces",
 * "constraints", "contacts"; "states", "rhs", "algebraic", "square"), as the system structs of
 * mechsys and odesys name their fields. */
const char *vm_mech_desc_diff (const vm_mech_desc *a, const vm_mech_desc *b);
const char *vm_ode_desc_diff (const vm_ode_desc *a, const vm_ode_desc *b);

#endif
