-- The wide dump of memory_dump_wide.lua with no cap, under an address-space
-- limit: the dump's text, growing by doubling, was the allocation the
-- system refused, and Swift stopped the process ("failed to allocate
-- 276824000 bytes", SIGABRT). Each new storage of the text is now asked for
-- first: a clean "not enough memory", and the script goes on.
-- ulimit-v: 250000
-- rss-mb: 300
-- stdout: ^after.true$
local root = ui.View {}
local v = root
for i = 1, 20000 do
  local child = ui.View {}
  v:addSubview(child)
  v = child
end
local ok, err = pcall(ui.dump, root, "tree", 10000)
assert(not ok and err == "not enough memory", tostring(err))
print("after", #ui.dump(ui.View {}) > 0)
