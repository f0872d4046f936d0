-- Experiment: where should an override live? The talk's advice is to set it on
-- the nearest common ancestor of the views that use it, not at the root.
-- ui.stats() shows the difference in work.
-- Run: traitlab examples/09_override_placement.lua

-- The overrides below set this trait by its property name, badgeStyle.
traits.define { name = "BadgeStyle", default = "plain", property = "badgeStyle" }

local function build()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  -- A big screen: 50 sections of 20 rows; only the "inbox" section shows badges.
  local inbox
  for s = 1, 50 do
    local section = ui.View { name = s == 1 and "inbox" or ("section" .. s) }
    root.view:addSubview(section)
    for r = 1, 20 do section:addSubview(ui.View { name = "row" .. r }) end
    if s == 1 then inbox = section end
  end
  ui.update()
  return scene, inbox
end

local function measure(label, setOverride)
  local before = ui.stats()
  setOverride()
  ui.update()
  local after = ui.stats()
  print(("%-34s visited %5d environments, %5d collections changed"):format(label,
    after.lastUpdateVisited, after.traitUpdates - before.traitUpdates))
  return after.traitUpdates - before.traitUpdates
end

local sceneA = build()
local atRoot = measure("override at the window scene:", function() sceneA.traitOverrides.badgeStyle = "count" end)
local _, inbox = build()
local atAncestor = measure("override at the nearest ancestor:", function() inbox.traitOverrides.badgeStyle = "count" end)
print(("the root override changed %.0fx as many collections"):format(atRoot / atAncestor))
