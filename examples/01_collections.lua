-- Building and modifying trait collections (WWDC23 "Unleash the UIKit trait system").
-- Run: traitlab examples/01_collections.lua

-- UITraitCollection { mutableTraits in ... }
local tc = traits.collection(function(t)
  t.userInterfaceIdiom = "phone"
  t.horizontalSizeClass = "regular"
end)
print("built:    " .. tostring(tc))

-- tc:modifyingTraits(function(t) ... end) returns a new collection; the original is unchanged.
local modified = tc:modifyingTraits(function(t)
  t.horizontalSizeClass = "compact"
  t.userInterfaceStyle = "dark"
end)
print("modified: " .. tostring(modified))
print("original still regular: " .. tc.horizontalSizeClass)

-- Which traits differ, and value equality.
local names = {}
for _, def in ipairs(tc:changedTraits(modified)) do names[#names + 1] = def.name end
print("changed:  " .. table.concat(names, ", "))
print("equal to a fresh copy: " .. tostring(tc == traits.collection { userInterfaceIdiom = "phone", horizontalSizeClass = "regular" }))

-- Unset traits read as their defaults; a typo is an error, not nil.
print("unset style reads as: " .. tc.userInterfaceStyle)
local _, err = pcall(function() return tc.horizontalSizeClas end)
print("typo: " .. tostring(err):gsub("^.-: ", ""))
