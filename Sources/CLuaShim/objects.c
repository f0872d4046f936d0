// The fast paths of host objects: raw method lookup, environments and
// collections (see CLuaShim.h).
#include "CLuaShim.h"
#include "shim_private.h"

#include <errno.h>
#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

// Pushes one of the keys the lookups use: from its registry reference when
// the host made one, else from the literal.
static inline void tl_push_key(lua_State *L, int ref, const char *literal) {
    if (ref > 0) {
        if (lua_rawgeti(L, LUA_REGISTRYINDEX, ref) == LUA_TSTRING) return;
        lua_pop(L, 1);
    }
    lua_pushstring(L, literal);
}

// Lua's lookup rule without calling a function, from the value on top
// (replaced by the result): a raw get while it is a table, then its
// metatable's __index while that is a table, at most 64 links. `key` is
// absolute. Returns the type of what it left.
__attribute__((always_inline)) static inline int tl_chain_lookup(lua_State *L, int key) {
    int link = lua_gettop(L);
    tl_host *h = tl_gethost(L);
    int index_ref = h ? h->index_key_ref : 0;
    for (int depth = 0; depth < 64; depth++) {
        if (lua_type(L, link) == LUA_TTABLE) {
            lua_pushvalue(L, key);
            int t = lua_rawget(L, link);
            if (t != LUA_TNIL) { lua_copy(L, -1, link); lua_settop(L, link); return t; }
            lua_pop(L, 1);
        }
        if (!lua_getmetatable(L, link)) break;
        tl_push_key(L, index_ref, "__index");
        lua_rawget(L, -2);
        lua_copy(L, -1, link);
        lua_settop(L, link);
        if (lua_type(L, link) != LUA_TTABLE) break;
    }
    lua_pushnil(L);
    lua_copy(L, -1, link);
    lua_settop(L, link);
    return LUA_TNIL;
}

// tl_rawlookup_at for an environment object known to be one (at `u`) and a
// key that is no "__" name (at `key`): its own field, then its class chain.
// Pushes the value (or nil) and returns its type.
int tl_env_lookup(lua_State *L, int u, int key) {   // (u and key absolute)
    if (lua_getiuservalue(L, u, 1) == LUA_TTABLE) {
        lua_pushvalue(L, key);
        int t = lua_rawget(L, -2);
        if (t != LUA_TNIL) { lua_copy(L, -1, -2); lua_pop(L, 1); return t; }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (!lua_getmetatable(L, u)) { lua_pushnil(L); return LUA_TNIL; }
    tl_host *h = tl_gethost(L);
    tl_push_key(L, h ? h->metatable_key_ref : 0, "__metatable");
    int t = lua_rawget(L, -2);     // the class table, in the metatable's place
    lua_copy(L, -1, -2);
    lua_pop(L, 1);
    if (t != LUA_TTABLE) { lua_pop(L, 1); lua_pushnil(L); return LUA_TNIL; }
    return tl_chain_lookup(L, key);
}

// An environment's lone handler: a registration's function kept as the
// box's user value itself while the environment has no field table (most
// registered views: no table for one function). The table made for the
// first field takes it in, under a key no script can make.
static char tl_lone_handler_key;



// Pushes the field table of the environment box at idx, making it (and
// moving a lone handler into it) when there is none.
void tl_env_make_fields(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    int t = lua_getiuservalue(L, idx, 1);
    if (t == LUA_TTABLE) return;
    lua_createtable(L, 0, 1);
    if (t == LUA_TFUNCTION) {
        lua_pushvalue(L, -2);
        lua_rawsetp(L, -2, &tl_lone_handler_key);
    }
    lua_remove(L, -2);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, idx, 1);
}

int tl_env_set_lone_handler(lua_State *L, int idx, int fn) {
    idx = lua_absindex(L, idx);
    fn = lua_absindex(L, fn);
    if (!tl_is_environment(L, idx) || lua_type(L, fn) != LUA_TFUNCTION) return 0;
    int t = lua_getiuservalue(L, idx, 1);
    lua_pop(L, 1);
    if (t != LUA_TNIL) return 0;
    lua_pushvalue(L, fn);
    lua_setiuservalue(L, idx, 1);
    return 1;
}

// tl_env_push_lone_handler for a box known to be an environment's.
int tl_env_push_lone_handler_of(lua_State *L, int idx) {
    int t = lua_getiuservalue(L, idx, 1);
    if (t == LUA_TFUNCTION) return 1;
    if (t == LUA_TTABLE && lua_rawgetp(L, -1, &tl_lone_handler_key) == LUA_TFUNCTION) {
        lua_remove(L, -2);
        return 1;
    }
    lua_settop(L, lua_gettop(L) - (t == LUA_TTABLE ? 2 : 1));
    lua_pushnil(L);
    return 0;
}

int tl_env_push_lone_handler(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (!tl_is_environment(L, idx)) { lua_pushnil(L); return 0; }
    return tl_env_push_lone_handler_of(L, idx);
}

void tl_env_drop_lone_handler(lua_State *L, int idx) {
    idx = lua_absindex(L, idx);
    if (!tl_is_environment(L, idx)) return;
    int t = lua_getiuservalue(L, idx, 1);
    if (t == LUA_TFUNCTION) {
        lua_pushnil(L);
        lua_setiuservalue(L, idx, 1);
    } else if (t == LUA_TTABLE) {
        lua_pushnil(L);
        lua_rawsetp(L, -2, &tl_lone_handler_key);   // (nil: never a new key, no allocation)
    }
    lua_pop(L, 1);
}


// ---------------------------------------------------------------------------
// Raw method lookup along a metatable/__index chain.

// "__" names belong to the host: an environment's field table keeps its
// bookkeeping under them, and no lookup on behalf of a script returns one.
static inline int tl_is_reserved_text(const char *k) {
    return k && k[0] == '_' && k[1] == '_';
}

static int tl_is_reserved_key(lua_State *L, int key) {
    return lua_type(L, key) == LUA_TSTRING && tl_is_reserved_text(lua_tostring(L, key));
}

// The environment box at idx (any box of kind TL_KIND_ENVIRONMENT), or NULL.
int tl_is_environment(lua_State *L, int idx) {
    int kind = 0;
    return tl_tobox(L, idx, &kind) != NULL && kind == TL_KIND_ENVIRONMENT;
}

int tl_rawlookup_at(lua_State *L, int idx, int key) {
    // Follows Lua's own rule (raw get on tables, then the metatable's __index
    // while it is a table) but never calls a function, so it cannot raise.
    // An environment is a userdata: its user fields (user value 1), then its
    // class chain (its metatable's __metatable), skipping host "__" names.
    key = lua_absindex(L, key);
    idx = lua_absindex(L, idx);
    if (tl_is_environment(L, idx)) {
        if (tl_is_reserved_key(L, key)) { lua_pushnil(L); return LUA_TNIL; }
        return tl_env_lookup(L, idx, key);
    }
    lua_pushvalue(L, idx);
    return tl_chain_lookup(L, key);
}

int tl_rawlookup(lua_State *L, int idx, const char *key) {
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    int t = tl_rawlookup_at(L, idx, -1);
    lua_remove(L, -2);
    return t;
}

// ---------------------------------------------------------------------------
// Environment objects
//
// An environment is a box with one user value: its field table, made on the
// first user field (most objects never get one). The metatable is shared by
// every instance of a class and protected; scripts reach neither it nor the
// field table, only what these two functions serve.

// Keeps the tracking object on top (of collection c) in the host's slot:
// the slot keeps it, and so c, alive.
static void tl_note_recent_tracking(lua_State *L, tl_host *h, void *c) {
    if (!h->recent_tracking_ref) return;
    lua_pushvalue(L, -1);
    lua_rawseti(L, LUA_REGISTRYINDEX, h->recent_tracking_ref);
    h->recent_tracking = c;
}

// Pushes collection c's object from the table of objects at t, or nil, and
// returns whether it is there: by address, or (by_slot) at the slot in its
// host key, where only a box of c that has that slot counts.
int tl_collection_object(lua_State *L, int t, void *c, int by_slot, uint64_t key) {
    t = lua_absindex(L, t);
    if (!by_slot) return lua_rawgetp(L, t, c) != LUA_TNIL;
    if (tl_slot_box(L, t, c, TL_KIND_COLLECTION, (uint32_t)key)) return 1;
    lua_pushnil(L);
    return 0;
}

int tl_env_index(lua_State *L) {
    lua_settop(L, 2);
    int kind = 0;
    void *env = tl_tobox(L, 1, &kind);
    if (!env || kind != TL_KIND_ENVIRONMENT) {
        if (tl_isdeadbox(L, 1))
            return luaL_error(L, "%s", TL_DEAD_OBJECT_MESSAGE);
        return luaL_error(L, "bad self to an environment's __index (%s)", luaL_typename(L, 1));
    }
    if (lua_type(L, lua_upvalueindex(3)) != LUA_TTABLE) return luaL_error(L, "corrupt environment indexer");
    // (The key's text, read once: it stays valid while the key is on the stack.)
    const char *key_text = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : NULL;
    if (tl_is_reserved_text(key_text)) { lua_pushnil(L); return 1; }
    if (lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, -2) != LUA_TNIL) return 1;
    }
    lua_settop(L, 2);
    if (!key_text) { lua_pushnil(L); return 1; }
    // traitCollection before the class chain (no class may define it:
    // setClassField, subclass): from C when its object exists already, that
    // is, from the second read of a collection on; the object is then kept in
    // the field table (checked first, above) until the collection changes.
    tl_host *h = tl_gethost(L);
    if (h && h->env_collection) {
        // (The interned key itself, or else whatever the table of properties says.)
        int is_collection = h->trait_collection_key && key_text == h->trait_collection_key;
        if (is_collection) lua_pushinteger(L, h->trait_collection_property);   // (as the table gives it)
        else {
            lua_pushvalue(L, 2);
            is_collection = lua_rawget(L, lua_upvalueindex(3)) == LUA_TNUMBER && lua_tointeger(L, 3) == h->trait_collection_property;
        }
        if (is_collection) {
            int tracked = 0;
            uint64_t key = 0;
            void *c = h->env_collection(h->swift_host, env, &tracked, &key);
            if (tracked && c && c == h->recent_tracking) {
                // The tracking object served last (views without overrides share it).
                if (lua_rawgeti(L, LUA_REGISTRYINDEX, h->recent_tracking_ref) == LUA_TUSERDATA) {
                    tl_box *b = tl_checkeduserdata(L, -1);
                    if (b && b->payload == c && b->kind == TL_KIND_COLLECTION) return 1;
                }
                lua_pop(L, 1);
            }
            // Where its object is kept: by slot in the table of objects when
            // this host keys the collection (or nobody does yet), else by address.
            int by_slot = !tracked && h->set_collection_key && tl_collection_keyed_here(h, key);
            int objects = tracked ? h->tracking_objects_ref : by_slot ? h->env_objects_ref : h->collection_objects_ref;
            if (c && h->retain_collection && lua_rawgeti(L, LUA_REGISTRYINDEX, objects) == LUA_TTABLE
                  && !tl_collection_object(L, -1, c, by_slot, key)) {
                // The collection's first object, made here: a box with the
                // shared metatable, kept in the weak table of objects. The
                // allocation may collect garbage and run finalizers, which may
                // run an update or make the object: ask again after it (nothing
                // runs between that answer and the reference taken).
                int table = lua_gettop(L) - 1;
                lua_pop(L, 1);
                tl_box *b = tl_newbox(L, NULL, TL_KIND_COLLECTION, tracked ? 2 : 1);
                int kind = 0, again = 0;
                uint64_t key_now = 0;
                void *now_env = tl_tobox(L, 1, &kind);
                void *now = now_env == env ? h->env_collection(h->swift_host, env, &again, &key_now) : NULL;
                if (now == c && again == tracked && key_now == key && !tl_collection_object(L, table, c, by_slot, key)) {
                    lua_pop(L, 1);
                    h->retain_collection(c);
                    b->payload = c;
                    if (lua_rawgeti(L, LUA_REGISTRYINDEX, tracked ? h->tracking_meta_ref : h->collection_meta_ref) == LUA_TTABLE)
                        lua_setmetatable(L, -2);
                    else
                        lua_pop(L, 1);   // (then no finalizer: the reference is never given back)
                    if (by_slot) {
                        uint32_t slot = tl_slot_adopt(L, h, table, lua_gettop(L), b);
                        h->set_collection_key(c, tl_collection_host_key(h, slot));
                    } else {
                        lua_pushvalue(L, -1);
                        lua_rawsetp(L, table, c);
                    }
                    if (tracked) tl_note_recent_tracking(L, h, c);
                    return 1;
                }
                lua_settop(L, 3);
                return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
            }
            if (c && lua_type(L, -1) == LUA_TUSERDATA) {
                // (debug.getregistry reaches the table: check what it holds.
                // A box a script finalized is replaced by Swift.)
                tl_box *b = tl_checkeduserdata(L, -1);
                if (b && b->payload && b->kind == TL_KIND_COLLECTION) {
                    int object = lua_gettop(L);
                    if (h->env_caches_collection && !tracked) {
                        tl_env_make_fields(L, 1);
                        lua_pushvalue(L, 2);
                        lua_pushvalue(L, object);
                        lua_rawset(L, -3);
                        h->env_caches_collection(env);
                        lua_settop(L, object);
                    }
                    if (tracked) tl_note_recent_tracking(L, h, c);
                    return 1;
                }
            }
            lua_settop(L, 3);
            return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
        }
        lua_settop(L, 2);
    }
    // Built-in methods, from the class's own copy (no script reaches it), and
    // properties: both before the class chain, which a script can write raw
    // (rawset(Class, ...)) and so must not hide either.
    if (lua_type(L, lua_upvalueindex(4)) == LUA_TTABLE) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, lua_upvalueindex(4)) != LUA_TNIL) return 1;
        lua_settop(L, 2);
    }
    // Properties: Swift gets (object, key, property id).
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(3)) == LUA_TNUMBER)
        return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
    lua_settop(L, 2);
    // Methods of the script's classes: the class chain, raw.
    lua_pushvalue(L, lua_upvalueindex(2));
    if (lua_type(L, -1) == LUA_TTABLE && tl_chain_lookup(L, 2) != LUA_TNIL) return 1;
    lua_pushnil(L);
    return 1;
}

// ---------------------------------------------------------------------------
// Collection objects (see CLuaShim.h)

// In a promoted object's cache table, the key of its box (a light userdata
// no script can make: the table itself is reachable only through the
// protected metatable).
static char tl_cache_box_key;

// The definition a key names for a collection read: a definition box, or a
// property name found in the registry table Swift fills (names not seen yet
// take the general path, which adds them). Pushes what the key names (the
// box, or whatever else it is) and returns the definition, or NULL.
static void *tl_push_definition_for_key(lua_State *L, tl_host *h, int key) {
    int t = lua_type(L, key);
    if (t == LUA_TSTRING) {
        t = lua_rawgeti(L, LUA_REGISTRYINDEX, h->definitions_by_property_ref);
        if (t == LUA_TTABLE) {
            lua_pushvalue(L, key);
            t = lua_rawget(L, -2);
            lua_remove(L, -2);
        }
    } else {
        lua_pushvalue(L, key);
    }
    int kind = 0;
    void *def = t == LUA_TUSERDATA ? tl_userdatabox(L, -1, &kind) : NULL;
    return def && kind == TL_KIND_DEFINITION ? def : NULL;
}

void tl_collection_keep(lua_State *L, int box, int key, int value) {
    tl_host *h = tl_gethost(L);
    box = lua_absindex(L, box);
    key = lua_absindex(L, key);
    value = lua_absindex(L, value);
    int t = lua_getiuservalue(L, box, 1);
    if (t == LUA_TBOOLEAN) {
        lua_pop(L, 1);
        int template_type = lua_rawgeti(L, LUA_REGISTRYINDEX, h->collection_meta_ref);
        int cache_meta_type = lua_rawgeti(L, LUA_REGISTRYINDEX, h->collection_cache_meta_ref);
        if (template_type == LUA_TTABLE && cache_meta_type == LUA_TTABLE) tl_collection_promote(L, box, -2, -1);
        lua_pop(L, 2);
        t = lua_getiuservalue(L, box, 1);
    } else if (t == LUA_TNIL) {
        lua_pop(L, 1);
        lua_pushboolean(L, 0);
        lua_setiuservalue(L, box, 1);
        return;
    }
    if (t == LUA_TTABLE) {
        lua_pushvalue(L, key);
        lua_pushvalue(L, value);
        lua_rawset(L, -3);
    }
    lua_pop(L, 1);
}

// Keeps a value a tracking object read: user value 1 maps the key to the
// value, user value 2 the key to the definition's box (both made on first
// use), so a later read of it is recorded and served here.
static void tl_tracking_cache(lua_State *L, int box, int key, int value, int def_box) {
    for (int uv = 1; uv <= 2; uv++) {
        int t = lua_getiuservalue(L, box, uv);
        if (t == LUA_TNIL) {
            lua_pop(L, 1);
            lua_createtable(L, 0, 2);
            lua_pushvalue(L, -1);
            if (!lua_setiuservalue(L, box, uv)) { lua_pop(L, 1); return; }
            t = LUA_TTABLE;
        }
        if (t != LUA_TTABLE) { lua_pop(L, 1); return; }
        lua_pushvalue(L, key);
        lua_pushvalue(L, uv == 1 ? value : def_box);
        lua_rawset(L, -3);
        lua_pop(L, 1);
    }
}

int tl_collection_index(lua_State *L) {
    lua_settop(L, 2);
    if (lua_toboolean(L, lua_upvalueindex(3))) {
        // A tracking object's read of a trait read before: recorded, and
        // served from its caches (see tl_tracking_cache).
        tl_box *b = tl_checkedbox(L, 1);
        if (b && b->payload && b->kind == TL_KIND_COLLECTION && lua_getiuservalue(L, 1, 2) == LUA_TTABLE) {
            lua_pushvalue(L, 2);
            int kind = 0;
            void *def = lua_rawget(L, -2) == LUA_TUSERDATA ? tl_userdatabox(L, -1, &kind) : NULL;
            if (def && kind == TL_KIND_DEFINITION && lua_getiuservalue(L, 1, 1) == LUA_TTABLE) {
                lua_pushvalue(L, 2);
                lua_rawget(L, -2);
                tl_host *h = tl_gethost(L);
                if (h && h->record_read) h->record_read(h->swift_host, b->payload, def);
                return 1;
            }
        }
        lua_settop(L, 2);
    }
    if (lua_type(L, 1) == LUA_TTABLE) {
        // A promoted object's cache missed: continue with its box.
        if (lua_rawgetp(L, 1, &tl_cache_box_key) != LUA_TUSERDATA)
            return luaL_error(L, "bad self to a trait collection's __index (table)");
        lua_replace(L, 1);
    }
    int kind = 0;
    if (!tl_tobox(L, 1, &kind) || kind != TL_KIND_COLLECTION) {
        if (tl_isdeadbox(L, 1)) return luaL_error(L, "this trait collection is no longer valid");
        return luaL_error(L, "bad self to a trait collection's __index (%s)", luaL_typename(L, 1));
    }
    if (lua_type(L, lua_upvalueindex(2)) != LUA_TTABLE) return luaL_error(L, "corrupt collection indexer");
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(2)) == LUA_TFUNCTION) return 1;
    lua_settop(L, 2);
    tl_host *h = tl_gethost(L);
    // [object, key, definition box]
    void *def = h && h->collection_value ? tl_push_definition_for_key(L, h, 2) : NULL;
    if (def) {
        void *collection = tl_tobox(L, 1, NULL);
        // A trait: Swift pushes its value, with no dispatcher in between.
        int cacheable = 0;
        tl_swift_frame f = tl_enter_swift(L, h);
        int n = h->collection_value(h->swift_host, L, collection, def, &cacheable);
        tl_leave_swift(h, f);
        if (n == 1 && lua_gettop(L) == 4) {
            n = tl_after_swift(L, h, 1);
            if (lua_toboolean(L, lua_upvalueindex(3))) tl_tracking_cache(L, 1, 2, 4, 3);
            else if (cacheable) tl_collection_keep(L, 1, 2, 4);
            return n;
        }
    }
    lua_settop(L, 2);
    return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
}

void tl_collection_promote(lua_State *L, int box, int template_index, int cache_meta_index) {
    box = lua_absindex(L, box);
    template_index = lua_absindex(L, template_index);
    cache_meta_index = lua_absindex(L, cache_meta_index);
    lua_createtable(L, 0, 4);                  // the cache
    int cache = lua_gettop(L);
    lua_pushvalue(L, box);
    lua_rawsetp(L, cache, &tl_cache_box_key);
    lua_pushvalue(L, cache_meta_index);
    lua_setmetatable(L, cache);
    lua_createtable(L, 0, 10);                 // the object's own metatable
    int meta = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, template_index)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, meta);
    }
    lua_pushliteral(L, "__index");
    lua_pushvalue(L, cache);
    lua_rawset(L, meta);
    lua_setmetatable(L, box);
    lua_setiuservalue(L, box, 1);               // pops the cache
}

void tl_collection_clear_cache(lua_State *L, int box) {
    box = lua_absindex(L, box);
    // A tracking object's definitions (its second user value, if any) go too.
    lua_pushnil(L);
    (void)lua_setiuservalue(L, box, 2);   // (pops; fails on a collection object's single user value)
    if (lua_getiuservalue(L, box, 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_pushnil(L);
        lua_setiuservalue(L, box, 1);
        return;
    }
    int cache = lua_gettop(L);
    for (;;) {   // remove every key but the box's (restart after each removal)
        lua_pushnil(L);
        int found = 0;
        while (lua_next(L, cache)) {
            lua_pop(L, 1);
            if (lua_type(L, -1) == LUA_TLIGHTUSERDATA && lua_touserdata(L, -1) == &tl_cache_box_key) continue;
            lua_pushnil(L);
            lua_rawset(L, cache);
            found = 1;
            break;
        }
        if (!found) break;
    }
    lua_pop(L, 1);
}

void tl_push_collection_indexer(lua_State *L, int fnid, int methods_index, int tracking) {
    methods_index = lua_absindex(L, methods_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, methods_index);
    lua_pushboolean(L, tracking);
    lua_pushcclosure(L, tl_collection_index, 3);
}

void tl_push_env_indexer(lua_State *L, int fnid, int class_index, int props_index, int builtins_index) {
    class_index = lua_absindex(L, class_index);
    props_index = lua_absindex(L, props_index);
    builtins_index = lua_absindex(L, builtins_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, class_index);
    lua_pushvalue(L, props_index);
    lua_pushvalue(L, builtins_index);
    lua_pushcclosure(L, tl_env_index, 4);
}

// Where an instance metatable keeps its class's built-in methods (a light
// userdata key no script can make; the metatable itself is protected).
static char tl_builtins_key;

void tl_set_builtins(lua_State *L, int meta_index, int builtins_index) {
    meta_index = lua_absindex(L, meta_index);
    lua_pushvalue(L, builtins_index);
    lua_rawsetp(L, meta_index, &tl_builtins_key);
}

int tl_is_builtin(lua_State *L, int idx, int key) {
    idx = lua_absindex(L, idx);
    key = lua_absindex(L, key);
    int top = lua_gettop(L);
    int found = 0;
    if (lua_getmetatable(L, idx) && lua_rawgetp(L, -1, &tl_builtins_key) == LUA_TTABLE) {
        lua_pushvalue(L, key);
        found = lua_rawget(L, -2) != LUA_TNIL;
    }
    lua_settop(L, top);
    return found;
}

int tl_env_newindex(lua_State *L) {
    lua_settop(L, 3);
    if (!tl_is_environment(L, 1)) {
        if (tl_isdeadbox(L, 1))
            return luaL_error(L, "%s", TL_DEAD_OBJECT_MESSAGE);
        return luaL_error(L, "bad self to an environment's __newindex (%s)", luaL_typename(L, 1));
    }
    if (lua_type(L, lua_upvalueindex(2)) != LUA_TTABLE) return luaL_error(L, "corrupt environment indexer");
    if (lua_type(L, 2) == LUA_TSTRING) {
        lua_pushvalue(L, 2);
        if (lua_rawget(L, lua_upvalueindex(2)) != LUA_TNIL)
            return tl_call_swift(L, (int)lua_tointeger(L, lua_upvalueindex(1)));
        lua_pop(L, 1);
        const char *k = lua_tostring(L, 2);
        if (tl_is_reserved_key(L, 2)) {
            // (The name as the message quotes it: cut, as Swift's messages are.)
            char shown[104];
            size_t len = strlen(k);
            snprintf(shown, sizeof shown, "%.96s%s", k, len > 96 ? "..." : "");
            return luaL_error(L, "cannot set field '%s' on %s: names starting with '__' are reserved", shown, luaL_typename(L, 1));
        }
        if (tl_is_builtin(L, 1, 2))
            return luaL_error(L, "cannot replace built-in method '%s'", k);
    } else if (lua_type(L, 2) == LUA_TLIGHTUSERDATA) {
        return luaL_error(L, "cannot use a light userdata as a field name");
    }
    if (lua_getiuservalue(L, 1, 1) != LUA_TTABLE) {
        lua_pop(L, 1);
        if (lua_isnil(L, 3)) return 0;   // clearing a field that was never set
        tl_env_make_fields(L, 1);
    }
    lua_insert(L, 2);
    lua_rawset(L, 2);
    return 0;
}

void tl_push_env_newindexer(lua_State *L, int fnid, int props_index) {
    props_index = lua_absindex(L, props_index);
    lua_pushinteger(L, fnid);
    lua_pushvalue(L, props_index);
    lua_pushcclosure(L, tl_env_newindex, 2);
}

int tl_pushfields(lua_State *L, int idx, int create) {
    idx = lua_absindex(L, idx);
    if (!tl_is_environment(L, idx)) { lua_pushnil(L); return 0; }
    if (lua_getiuservalue(L, idx, 1) == LUA_TTABLE) return 1;
    lua_pop(L, 1);
    if (!create) { lua_pushnil(L); return 0; }
    tl_env_make_fields(L, idx);
    return 1;
}

static int tl_openlibs_body(lua_State *L) {
    luaL_openlibs(L);
    return 0;
}

int tl_openlibs(lua_State *L) {
    return tl_cpcall(L, tl_openlibs_body, NULL);
}
