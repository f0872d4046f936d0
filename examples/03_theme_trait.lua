-- The theme trait: an enum trait with a name, an identifier and color appearance.
-- Run: traitlab examples/03_theme_trait.lua

local MyAppTheme = traits.enum("MyAppTheme", { "standard", "pastel", "bold", "monochrome" })
local MyAppThemeTrait = traits.define {
  name = "Theme",                       -- shown in messages and dumps
  default = MyAppTheme.standard,
  type = MyAppTheme,
  identifier = "com.myapp.theme",       -- enables encoding
  affectsColorAppearance = true,        -- views redraw when it changes
  property = "myAppTheme",
}

print("name:        " .. MyAppThemeTrait.name)
print("identifier:  " .. MyAppThemeTrait.identifier)
print("property:    " .. MyAppThemeTrait.property)
print("cases:       " .. table.concat(MyAppTheme.cases, ", "))
print("affectsColorAppearance: " .. tostring(MyAppThemeTrait.affectsColorAppearance))

local tc = traits.collection { myAppTheme = MyAppTheme.pastel }
print("encoded:     " .. tc:encode())
print("decoded:     " .. tostring(traits.decode(tc:encode())))

local _, err = pcall(function() traits.collection { myAppTheme = "neon" } end)
print("wrong case:  " .. tostring(err):gsub("^.-: ", ""))
