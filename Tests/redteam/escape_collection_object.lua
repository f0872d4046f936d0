-- A trait collection is one userdata box with a shared, protected metatable
-- whose __index is a C function (tl_collection_index); from its second read
-- on it has a metatable of its own whose __index is its cache table, and the
-- cache's shared metatable sends misses to the same C function. Every entry
-- point must refuse a forged self, and a collection whose finalizer already
-- ran (reached again from a script's own finalizer, no debug library needed)
-- must give an error, never touch the released Swift collection.
-- exit: 0
-- stdout: ^done$
local S = traits.define { name = "RtcS", type = "string", default = "a" }
local N = traits.define { name = "RtcN", type = "integer", default = 0 }

-- The placeholder metatable; no raw access to a userdata.
local tc = traits.collection { [S] = "b", [N] = math.mininteger }
assert(getmetatable(tc) == "TraitCollection")
assert(type(tc) == "userdata")
assert(not pcall(setmetatable, tc, {}))
assert(not pcall(rawget, tc, "rtcS"))
assert(not pcall(rawset, tc, "rtcS", "c"))
assert(not pcall(function() tc.rtcS = "c" end))
assert(tc.rtcS == "b" and tc.rtcS == "b" and tc[S] == "b" and tc.rtcN == math.mininteger)
assert(not pcall(function() return tc[math.mininteger] end))
assert(not pcall(function() return tc[{}] end))
assert(tostring(tc):find("TraitCollection", 1, true))

-- A tracking object (what self.traitCollection is inside layoutSubviews)
-- caches what it read, and the definitions its keys named, in two user
-- values: forged ones (a key naming a view or a number instead of a
-- definition, non-tables) are ignored or give the script's own data back,
-- never a crash; its __gc called by hand kills it like any collection.
do
  local kept, reads = nil, {}
  local Reader = ui.View:subclass("RtcReader", {
    layoutSubviews = function(self)
      kept = self.traitCollection
      reads[#reads + 1] = kept.rtcS
      reads[#reads + 1] = kept[S]
    end,
  })
  local v = Reader {}
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  window.rootViewController = ui.ViewController {}
  window.rootViewController.view:addSubview(v)
  ui.update()
  assert(reads[1] == "a" and reads[2] == "a")
  for _, forged in ipairs {
    { rtcS = v, [S] = 0x41414141 }, { rtcS = math.mininteger, [S] = kept }, 42, "x", false,
  } do
    debug.setuservalue(kept, forged, 2)
    debug.setuservalue(kept, { rtcS = "forged value" }, 1)
    v:setNeedsLayout()
    ui.update()
    assert(reads[#reads] == "a" or reads[#reads] == "forged value")
  end
  -- A definition box of another trait: the script's own (wrong) bookkeeping, nothing worse.
  debug.setuservalue(kept, { rtcS = N }, 2)
  v:setNeedsLayout()
  ui.update()
  scene.traitOverrides.rtcS = "b"
  ui.update()
  local trackingGc = rawget(debug.getmetatable(kept), "__gc")
  trackingGc(kept); trackingGc(kept)
  assert(not pcall(function() return kept.rtcS end))
  v:setNeedsLayout()
  ui.update()   -- a fresh tracking object for the view's collection
  assert(reads[#reads] == "b", tostring(reads[#reads]))
  window.windowScene = nil
end
-- Forged selves to every metamethod, through the debug library: the shared
-- metatable (a collection never read), a promoted one (tc, read three times)
-- and the shared metatable of promoted objects' caches.
local fresh = traits.collection { [S] = "never read" }
local shared = debug.getmetatable(fresh)
local promoted = debug.getmetatable(tc)
assert(type(rawget(shared, "__index")) == "function")
local cacheMeta = type(rawget(promoted, "__index")) == "table" and debug.getmetatable(rawget(promoted, "__index"))
local v = ui.View {}
local forged = { 0x4141414141414141, math.mininteger, "x", {}, io.stdout, v, traits.UserInterfaceStyle,
                 ui.Color(0, 0, 0), v.traitOverrides, coroutine.create(print), print, true }
local n = 0
for _, mt in ipairs { shared, promoted, cacheMeta or {} } do
  for _, event in ipairs { "__index", "__newindex", "__tostring", "__eq", "__pairs", "__gc" } do
    local f = rawget(mt, event)
    if type(f) == "function" then
      for _, a in ipairs(forged) do
        for _, key in ipairs { "rtcS", "modifyingTraits", S, math.mininteger, 1 } do
          local ok = pcall(f, a, key, a)
          if event == "__index" or event == "__tostring" or event == "__pairs" then assert(not ok, event) end
          n = n + 1
        end
      end
    end
  end
end
assert(n > 300)
-- A forged cache (user value) is the script's own data; a non-table one is ignored.
local other = traits.collection { [S] = "z" }
debug.setuservalue(other, 0x4141414141414141)
assert(other.rtcS == "z")
-- __gc twice by hand: the object is dead afterwards, and says so.
local gc = rawget(shared, "__gc")
assert(type(gc) == "function")
local victim = traits.collection { [S] = "v" }
gc(victim); gc(victim)
local ok, err = pcall(function() return victim.rtcS end)
assert(not ok and type(err) == "string", err)
assert(not pcall(tostring, victim))
assert(not pcall(function() return victim:modifyingTraits(function() end) end))
assert((victim == tc) == false)

-- No debug library: a script's finalizer reaches a collection whose own
-- finalizer ran first (finalizers run in reverse order of marking).
local seen = {}
do
  local guard = setmetatable({}, { __gc = function(self)
    local c = self.c
    seen.read = { pcall(function() return c.rtcS end) }
    seen.str = { pcall(tostring, c) }
    seen.mod = { pcall(function() return c:modifyingTraits(function(m) m.rtcS = "q" end) end) }
    seen.eq = (c == c)
    Resurrected = c
  end })
  guard.c = traits.collection { [S] = "dead" }
  local _ = traits.collection { [S] = "displaces the host's last-pushed slot" }
end
collectgarbage(); collectgarbage()
assert(seen.read and seen.read[1] == false, "a finalized collection must not be readable")
assert(seen.str[1] == false and seen.mod[1] == false)
-- Resurrected after its finalizer: still refused, and a second collection finalizes nothing twice.
assert(not pcall(function() return Resurrected.rtcS end))
Resurrected = nil
collectgarbage(); collectgarbage()
print("done")
