-- A configuration file named with -f (not .busted): its default task runs
-- the --lpath spec with alt/ on the path.
return {
  default = {
    ROOT = { "options/lpath_spec.lua" },
    lpath = "./alt/?.lua",
  },
}
