-- Collections holding a table value of 2,000 entries, made and dropped,
-- almost 20 times the cap in all: each is asked for before it is made, and
-- when the cap is reached the dead ones are collected (their engine memory
-- is freed only then) instead of the next one being refused. The loop
-- finishes, within the cap's promise.
-- args: --memory-limit 16M
-- stdout: ^done$
local Big = traits.define { name = "Big", type = "table", default = {} }
local t = {}
for i = 1, 2000 do t[i] = i end
for i = 1, 1000 do
  local tc = traits.collection { [Big] = t }
  assert(tc ~= nil)   -- (no value read: Lua allocates nothing that would start a collection)
end
print("done")
