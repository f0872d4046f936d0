// Debian installs the headers under /usr/include/lua5.4; including them by that
// relative path needs no -I flag, so no pkg-config link flags leak into products.
#include <lua5.4/lua.h>
#include <lua5.4/lauxlib.h>
#include <lua5.4/lualib.h>
