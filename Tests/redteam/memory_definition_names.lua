-- Huge definition names live in the engine (definitions are never collected):
-- each is counted against --memory-limit.
-- args: --memory-limit 16M
-- exit: 1
-- stderr: not enough memory
-- rss-mb: 61
local name = string.rep("n", 1e6)
for i = 1, 1e5 do
  traits.define { name = name .. i, default = 1 }
end
print("ESCAPED: the cap never stopped the loop")
