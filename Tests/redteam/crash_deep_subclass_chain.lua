-- A constructor asks whether its class is ui.Label or ui.ImageView (or a
-- subclass of one) by walking the class chain; the walk kept every link on
-- the Lua stack, so a chain of 200 subclasses ran past the stack's room and
-- crashed the process. It now keeps the stack as it is, however deep.
-- stdout: ^L200 V200 done$
local L, V = ui.Label, ui.ImageView
for i = 1, 200 do L = L:subclass("L" .. i); V = V:subclass("V" .. i) end
local label, image = L { text = "deep" }, V {}
print(label.className .. " " .. image.className .. " done")
