-- An update learns whether an object or its class defines a callback
-- from bits the host keeps current, not from a lookup per environment. These
-- cases change the definitions at every moment a script can, and check that
-- the callbacks still run exactly when UIKit would call them (UIKit calls an
-- override whenever the class or object has one: Apple's docs for
-- traitCollectionDidChange(_:) and layoutSubviews()).

local function window_with(view)
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  window.rootViewController = ui.ViewController {}
  window.rootViewController.view:addSubview(view)
  ui.update()
  return scene, window
end

local function flip(scene)
  scene.traitOverrides.userInterfaceStyle =
    scene.traitCollection.userInterfaceStyle == "dark" and "light" or "dark"
  ui.update()
end

describe("callbacks defined after the object exists", function()
  it("an instance field set after the first update is called", function()
    local v = ui.View {}
    local scene = window_with(v)
    local calls = 0
    v.traitCollectionDidChange = function(self, previous) calls = calls + 1 end
    flip(scene)
    assert.are.equal(1, calls)
  end)

  it("a class method added after its objects were created is called", function()
    local Late = ui.View:subclass("LateCallbackView")
    local v = Late {}
    local scene = window_with(v)
    local calls = 0
    Late.traitCollectionDidChange = function(self) calls = calls + 1 end
    flip(scene)
    assert.are.equal(1, calls)
  end)

  it("a method added to a parent class reaches objects of its subclasses", function()
    local Base = ui.View:subclass("FlagBase")
    local Sub = Base:subclass("FlagSub")
    local v = Sub {}
    local scene = window_with(v)
    local calls = 0
    Base.traitCollectionDidChange = function(self) calls = calls + 1 end
    flip(scene)
    assert.are.equal(1, calls)
    -- and subclasses created afterwards inherit it
    local w = Base:subclass("FlagSub2") {}
    v:addSubview(w)
    ui.update()
    calls = 0
    flip(scene)
    assert.are.equal(2, calls)
  end)

  it("a layoutSubviews added to a class later runs on the next layout", function()
    local Lazy = ui.View:subclass("LazyLayoutView")
    local v = Lazy {}
    window_with(v)
    local seen
    Lazy.layoutSubviews = function(self) seen = self.traitCollection.userInterfaceStyle end
    v:setNeedsLayout()
    ui.update()
    assert.is_not_nil(seen)
  end)

  it("a view controller's lifecycle callback set as a field runs", function()
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    local vc = ui.ViewController {}
    local loaded = 0
    vc.viewDidLoad = function(self) loaded = loaded + 1 end
    window.rootViewController = vc
    ui.update()
    assert.are.equal(1, loaded)
  end)

  it("callbacks given to the constructor are called", function()
    local calls = 0
    local v = ui.View { traitCollectionDidChange = function() calls = calls + 1 end }
    local scene = window_with(v)
    calls = 0
    flip(scene)
    assert.are.equal(1, calls)
  end)

  it("a callback removed (set to nil) is no longer called", function()
    local calls = 0
    local v = ui.View { traitCollectionDidChange = function() calls = calls + 1 end }
    local scene = window_with(v)
    v.traitCollectionDidChange = nil
    calls = 0
    flip(scene)
    assert.are.equal(0, calls)
  end)
end)

describe("the cached traitCollection", function()
  it("is replaced at every change, for objects read once and for objects never read", function()
    local a, b = ui.View {}, ui.View {}
    local scene = window_with(a)
    a:addSubview(b)
    ui.update()
    local first = a.traitCollection
    assert.are.equal(first, a.traitCollection)
    flip(scene)
    assert.are_not.equal(first.userInterfaceStyle, a.traitCollection.userInterfaceStyle)
    assert.are.equal(scene.traitCollection.userInterfaceStyle, b.traitCollection.userInterfaceStyle)
    flip(scene)
    assert.are.equal(first.userInterfaceStyle, a.traitCollection.userInterfaceStyle)
  end)

  it("is not what a tracked layoutSubviews reads (its reads are tracked)", function()
    local layouts = 0
    local Reader = ui.View:subclass("CacheReader", {
      layoutSubviews = function(self) layouts = layouts + 1; local _ = self.traitCollection.userInterfaceStyle end,
    })
    local v = Reader {}
    local scene = window_with(v)
    local _ = v.traitCollection.userInterfaceStyle   -- cached outside layout
    layouts = 0
    flip(scene)
    assert.are.equal(1, layouts)
    flip(scene)
    assert.are.equal(2, layouts)
  end)

  -- Apple, "Automatic trait tracking" (iOS 18, layoutSubviews()): each call
  -- records the traits it reads, and a change to one of them invalidates that
  -- view's layout. Views without overrides share one collection, and so one
  -- tracking object, which serves a value read before from its cache: the
  -- read must still be recorded for the view laying out now.
  it("records reads served from a shared tracking object's cache for every view", function()
    local counts = {}
    local Reader = ui.View:subclass("SharedReader", {
      layoutSubviews = function(self)
        counts[self] = (counts[self] or 0) + 1
        local _ = self.traitCollection.userInterfaceStyle
      end,
    })
    local parent = ui.View {}
    local a, b, c = Reader {}, Reader {}, Reader {}
    parent:addSubview(a); parent:addSubview(b); parent:addSubview(c)
    local scene = window_with(parent)
    counts = {}
    for round = 1, 3 do
      flip(scene)
      assert.are.same({ round, round, round }, { counts[a], counts[b], counts[c] })
    end
    -- A trait none of them read lays none of them out.
    scene.traitOverrides.layoutDirection = "rightToLeft"
    ui.update()
    assert.are.same({ 3, 3, 3 }, { counts[a], counts[b], counts[c] })
    -- Another trait read from the cache by the second view only is its alone.
    Reader.layoutSubviews = function(self)
      counts[self] = (counts[self] or 0) + 1
      local _ = self.traitCollection.userInterfaceStyle
      if self == b then local _ = self.traitCollection.legibilityWeight end
    end
    a:setNeedsLayout(); b:setNeedsLayout(); c:setNeedsLayout()
    ui.update()
    scene.traitOverrides.legibilityWeight = "bold"
    ui.update()
    assert.are.same({ 4, 5, 4 }, { counts[a], counts[b], counts[c] })
  end)

  it("kept from layoutSubviews and read outside it, still records the reads of the next layout", function()
    local kept
    local layouts = 0
    local Keeper = ui.View:subclass("KeeperView", {
      layoutSubviews = function(self)
        layouts = layouts + 1
        kept = self.traitCollection
        local _ = kept.userInterfaceStyle
      end,
    })
    local v = Keeper {}
    local scene = window_with(v)
    assert.are.equal(scene.traitCollection.userInterfaceStyle, kept.userInterfaceStyle)   -- read outside tracking
    v:setNeedsLayout()
    ui.update()                       -- same collection: the same tracking object again
    assert.are.equal(2, layouts)
    flip(scene)
    assert.are.equal(3, layouts)      -- the second layout's read was recorded
    assert.are.equal(scene.traitCollection.userInterfaceStyle, kept.userInterfaceStyle)
  end)
end)
