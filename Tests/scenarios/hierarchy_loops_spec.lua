-- Edits that would make a controller inherit from its own descendant are
-- refused in both modes. In iOS 17 mode a child controller whose
-- view is not loaded yet inherits from its parent; before the fix the loops
-- below were accepted, and ui.dump of a node in one never returned.

local function refused(f, pattern)
  local ok, err = pcall(f)
  assert.is_false(ok)
  assert.is_truthy(tostring(err):find(pattern, 1, true), tostring(err))
end

for _, mode in ipairs { "ios17", "legacy" } do
  describe("hierarchy loops (" .. mode .. ")", function()
    before_each(function() ui.hierarchyMode = mode end)
    after_each(function() ui.hierarchyMode = "ios17" end)

    it("refuses a parent's view inside a view presented from its child", function()
      local parent, child, sheet = ui.ViewController { name = "P" }, ui.ViewController { name = "X" }, ui.ViewController { name = "Q" }
      parent:addChild(child)
      child:present(sheet)   -- forwarded to P, the top of X's parent chain
      refused(function() sheet.view:addSubview(parent.view) end, "cannot add View as a subview")
      assert.is_nil(parent.view.superview)
      assert.is_string(ui.dump(parent))
    end)

    it("refuses the same loop closed by addChild", function()
      local parent, child, sheet = ui.ViewController { name = "P" }, ui.ViewController { name = "X" }, ui.ViewController { name = "Q" }
      child:present(sheet)
      sheet.view:addSubview(parent.view)
      refused(function() parent:addChild(child) end, "cannot add ViewController \"X\" as a child")
      assert.is_nil(child.parent)
      assert.is_string(ui.dump(parent))
    end)

    it("refuses the same loop closed by present", function()
      local parent, child, sheet = ui.ViewController { name = "P" }, ui.ViewController { name = "X" }, ui.ViewController { name = "Q" }
      sheet.view:addSubview(parent.view)
      parent:addChild(child)
      refused(function() child:present(sheet) end, "cannot present ViewController \"Q\"")
      assert.is_nil(sheet.presentingViewController)
      assert.is_string(ui.dump(parent))
    end)
  end)
end
