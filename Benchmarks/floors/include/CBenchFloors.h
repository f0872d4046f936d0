// What the public Lua C API costs at least, measured in a lua_State of its
// own with no TraitLab code: the floors under two of the performance targets
// (docs/performance.md, "Floors").
#ifndef CBENCHFLOORS_H
#define CBENCHFLOORS_H

/// Seconds per protected call, from C, of the benchmark's registration handler
/// (`function(self, previous) calls = calls + 1 end`) with two arguments and a
/// message handler, as TraitLab calls a handler: the best of `rounds` loops of
/// `calls` calls. Negative when Lua fails.
double tlf_protected_call(int calls, int rounds);

/// The first read of a fresh object at least, against a table read: seconds
/// per `views[i].traitCollection.benchTheme` where the view's `__index` (a C
/// function) makes a new full userdata whose metatable has a C `__index` and a
/// `__gc` (what a collection object needs), into out[0]; seconds per
/// `nodes[i].tc.benchTheme` of tables made just before, untimed, into out[1].
/// The best of `rounds` loops over `count` views. Returns 0, or -1 when Lua fails.
int tlf_fresh_object_read(int count, int rounds, double *out);

#endif
