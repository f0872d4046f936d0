-- luacheck configuration for the scripts in this repository: luacheck's
-- standard "traitlab" (Lua 5.4 and TraitLab's four globals), which
-- lua/traitlab/luacheck.lua defines and scripts/install.sh installs for other
-- projects' .luacheckrc. luacheck requires modules from the folder of this file
-- too, so the repository's own copy is found as "lua.traitlab.luacheck".
stds.traitlab = require "lua.traitlab.luacheck"
std = "traitlab"
-- Callbacks have fixed signatures (`function(self, previous)`): not every
-- argument is used, and that is fine.
unused_args = false
-- The project keeps no line-length limit.
max_line_length = false

files["**/*_spec.lua"] = { std = "+busted" }

-- Declarations for lua-language-server, never run; and the std above, which
-- reads luacheck's own module.
exclude_files = { "lua/traitlab.d.lua", ".build*/**" }
