-- ui.dump built its whole text before anything was counted, and each line of
-- a deep tree was indented to the full width: a chain of 20,000 views dumped
-- 10,000 columns wide reached 290 MB under a 16 MB cap. A dump now asks the
-- cap for its text as it grows, and stops early with "not enough memory".
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- stdout: ^built$
local root = ui.View {}
local v = root
for i = 1, 20000 do
  local child = ui.View {}
  v:addSubview(child)
  v = child
end
print("built")
local text = ui.dump(root, "tree", 10000)
print("ESCAPED: a dump of " .. #text .. " bytes under a 16 MB cap")
