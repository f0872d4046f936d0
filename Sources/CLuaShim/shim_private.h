// What the shim's C files share and nothing outside the shim sees.
#ifndef CLUASHIM_PRIVATE_H
#define CLUASHIM_PRIVATE_H

#include "CLuaShim.h"

// Whether the function `ar` describes (filled with "S") may go on while an
// interrupt is pending: the registered policy decides (tl_set_interrupt_policy);
// with none, nothing may.
int tl_interrupt_trusts(lua_State *L, const lua_Debug *ar);

#endif
