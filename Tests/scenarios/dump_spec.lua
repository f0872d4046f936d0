-- docs/guide.md, "Dumps, pictures and traces": ui.dump's text trees (concise and full), JSON and DOT; ui.picture
-- through Graphviz; ui.trace to a file as JSON lines. (The command-line side:
-- missing Graphviz, a hanging dot, the sandbox and the REPL's :picture are in
-- Tests/cli/picture_test.sh.)

local function window_with_root()
  local scene = ui.WindowScene {}
  local window = ui.Window { windowScene = scene }
  local root = ui.ViewController { name = "root" }
  window.rootViewController = root
  return scene, window, root
end

local function lines(s)
  local t = {}
  for line in s:gmatch("([^\n]*)\n") do t[#t + 1] = line end
  return t
end

local function utf8_width(s) return utf8.len(s) or #s end

local function read_file(path)
  local f = assert(io.open(path, "rb"))
  local data = f:read("a")
  f:close()
  return data
end

local function temp_path(ext)
  local p = os.tmpname()
  os.remove(p)
  return p .. ext
end

describe("ui.dump as a concise tree", function()
  it("shows the root's non-default traits once, and below only overrides", function()
    local scene, _, root = window_with_root()
    local card = ui.View { name = "card" }
    root.view:addSubview(card)
    card.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    local tree = ui.dump(scene, "tree", 100)
    assert.are.equal(tree, ui.dump(scene, nil, 100))
    -- Only the root lists traits; userInterfaceIdiom (a device trait) appears once.
    local _, idioms = tree:gsub("userInterfaceIdiom", "")
    assert.are.equal(1, idioms)
    assert.matches('^WindowScene\n│  traits { userInterfaceIdiom = "phone"', tree)
    assert.matches('\n└─ Window\n   └─ ViewController "root"\n      └─ View\n         └─ View "card"  overrides { userInterfaceStyle = "dark" }\n$', tree)
  end)

  it("marks values the last update changed with what they were", function()
    local scene, _, root = window_with_root()
    local card = ui.View { name = "card" }
    root.view:addSubview(card)
    ui.update()
    -- A first collection is not a change: nothing is marked yet.
    assert.is_nil(ui.dump(scene):find("(was", 1, true))
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    local tree = ui.dump(scene, "tree", 100)
    assert.matches('WindowScene  overrides { userInterfaceStyle = "dark" %(was "light"%) }', tree)
    assert.matches('userInterfaceStyle = "dark" %(was "light"%)', tree)
    -- The next update that changes something else drops the marks it did not make.
    card.traitOverrides.legibilityWeight = "bold"
    ui.update()
    tree = ui.dump(scene, "tree", 100)
    assert.matches('overrides { userInterfaceStyle = "dark" }', tree)
    assert.matches('View "card"  overrides { legibilityWeight = "bold" %(was "regular"%) }', tree)
    -- An update with nothing to do keeps them.
    ui.update()
    assert.are.equal(tree, ui.dump(scene, "tree", 100))
  end)

  it("says when an update is pending and which traits differ from the parent's", function()
    local scene, _, root = window_with_root()
    ui.update()
    root.view.traitOverrides.userInterfaceStyle = "dark"
    local tree = ui.dump(scene, "tree", 100)
    assert.matches('└─ View  %(update pending%)  overrides { userInterfaceStyle = "dark" }', tree)
    -- A detached subtree keeps its old collection: its root lists it all.
    ui.update()
    local v = ui.View { name = "v" }
    root.view:addSubview(v)
    ui.update()
    v:removeFromSuperview()
    scene.traitOverrides.legibilityWeight = "bold"
    ui.update()
    assert.matches('^View "v"\n   traits { userInterfaceIdiom', ui.dump(v, "tree", 100))
  end)

  it("follows the hierarchy mode", function()
    local scene, _, parent = window_with_root()
    local container = ui.View { name = "container" }
    parent.view:addSubview(container)
    local child = ui.ViewController { name = "child" }
    parent:addChild(child)
    container:addSubview(child.view)
    ui.update()
    assert.matches('View "container"\n +└─ ViewController "child"', ui.dump(scene))
    ui.hierarchyMode = "legacy"
    ui.update()
    local tree = ui.dump(scene)
    assert.matches('ViewController "root"\n +├─ View\n +│  └─ View "container"\n +└─ ViewController "child"', tree)
    ui.hierarchyMode = "ios17"
    ui.update()
  end)

  it("keeps every line within the width, clipping what cannot wrap", function()
    local scene, _, root = window_with_root()
    local long = ui.View { name = string.rep("n", 300) }
    root.view:addSubview(long)
    local LongText = traits.define { name = "LongText", default = "", property = "longText" }
    long.traitOverrides[LongText] = string.rep("x", 500) .. "\nsecond line"
    long.traitOverrides.userInterfaceStyle = "dark"
    long.traitOverrides.legibilityWeight = "bold"
    local parent = long
    for _ = 1, 100 do   -- deeper than the indentation shown
      local v = ui.View {}
      parent:addSubview(v)
      parent = v
    end
    ui.update()
    for _, width in ipairs { 40, 61, 100, 240 } do
      for _, format in ipairs { "tree", "full" } do
        local out = ui.dump(scene, format, width)
        for _, line in ipairs(lines(out)) do
          assert.is_true(utf8_width(line) <= width, ("%s at %d: %d columns: %s"):format(format, width, utf8_width(line), line))
        end
        assert.matches("…%(%d+%) ", out)
        assert.is_nil(out:find("x\nsecond", 1, true))   -- a newline in a value is escaped
      end
    end
    assert.matches('longText = "x+…', ui.dump(scene, "tree", 100))
    assert.matches('xxxx\\nsecond line"', ui.dump(scene, "tree", 2000))
  end)

  it("uses COLUMNS, or 100 columns, when no width is given", function()
    local scene, _, root = window_with_root()
    for _ = 1, 40 do root.view:addSubview(ui.View { name = string.rep("w", 120) }) end
    ui.update()
    local out = ui.dump(scene)
    local widest = 0
    for _, line in ipairs(lines(out)) do widest = math.max(widest, utf8_width(line)) end
    local columns = tonumber(os.getenv("COLUMNS") or "")
    assert.is_true(widest <= (columns and math.max(columns, 40) or 100), "widest line: " .. widest)
  end)

  it("rejects bad formats and widths", function()
    local v = ui.View {}
    assert.has_error(function() ui.dump(v, "svg") end, "unknown dump format 'svg' (tree, full, json or dot)")
    assert.has_error(function() ui.dump(v, "tree", 0) end)
    assert.has_error(function() ui.dump(v, "tree", "wide") end)
    assert.has_error(function() ui.dump(v, "tree", 1.5) end)
    assert.is_string(ui.dump(v, "tree", math.maxinteger))
  end)
end)

describe("ui.dump full, JSON and DOT", function()
  it("full lists every node's non-default traits, marked when changed", function()
    local scene = window_with_root()
    ui.update()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    local full = ui.dump(scene, "full", 200)
    local _, idioms = full:gsub("userInterfaceIdiom", "")
    assert.are.equal(4, idioms)   -- scene, window, root, its view
    local _, marks = full:gsub('userInterfaceStyle = "dark" %(was "light"%)', "")
    assert.are.equal(5, marks)    -- the override and the four collections
  end)

  it("JSON has stable fields, with the values before the last update under changed", function()
    local scene, _, root = window_with_root()
    local card = ui.View { name = "card" }
    root.view:addSubview(card)
    ui.update()
    card.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    local json = ui.dump(scene, "json")
    assert.matches('^{"class":"WindowScene","overrides":{},"traits":{', json)
    assert.matches('{"class":"View","name":"card","overrides":{"userInterfaceStyle":"dark"},"traits":{[^}]*},'
      .. '"changed":{"userInterfaceStyle":"light"},"children":%[%]}', json)
    local _, opens = json:gsub("{", "")
    local _, closes = json:gsub("}", "")
    assert.are.equal(opens, closes)
  end)

  it("JSON shows a label's font and resolved text colour as the tree dump writes them", function()
    local scene, _, root = window_with_root()
    local title = ui.Label { name = "title", font = ui.Font.preferred("body"),
      adjustsFontForContentSizeCategory = true, textColor = ui.Color.label }
    root.view:addSubview(title)
    scene.traitOverrides.userInterfaceStyle = "dark"
    scene.traitOverrides.preferredContentSizeCategory = "accessibilityExtraExtraExtraLarge"
    ui.update()
    assert.matches('"shows":["font body 53 pt","textColor label → #FFFFFF (dark)"]', ui.dump(title, "json"), 1, true)
    assert.matches("textColor label → #FFFFFF (dark)", ui.dump(title), 1, true)
  end)

  it("DOT groups windows and view controllers and shows containment the mode skips", function()
    local scene, _, parent = window_with_root()
    local container = ui.View { name = "container" }
    parent.view:addSubview(container)
    local child = ui.ViewController { name = "child" }
    parent:addChild(child)
    container:addSubview(child.view)
    ui.update()
    local dot = ui.dump(scene, "dot")
    assert.matches("^digraph traits {", dot)
    local _, clusters = dot:gsub("subgraph cluster_", "")
    assert.are.equal(3, clusters)   -- the window, root and child
    assert.matches("hierarchy mode ios17", dot)
    assert.matches('label="child"', dot)       -- ios17: the child inherits from the container, not its parent
    assert.is_nil(dot:find('label="superview"', 1, true))
    ui.hierarchyMode = "legacy"
    ui.update()
    dot = ui.dump(scene, "dot")
    assert.matches("hierarchy mode legacy", dot)
    assert.matches('label="superview"', dot)   -- legacy: from the parent, not from the view's superview
    assert.is_nil(dot:find('label="child"', 1, true))
    ui.hierarchyMode = "ios17"
    ui.update()
  end)
end)

describe("deep trees", function()
  -- A dump used to be O(depth²) bytes of indentation (8,000 levels: 677 MB)
  -- and recursive. Built bottom-up so that building is linear too.
  it("dump a 50,000-deep chain in every format, linear in depth", function()
    local N = 50000
    local top = ui.View { name = "leaf" }
    for _ = 1, N - 1 do
      local p = ui.View {}
      p:addSubview(top)
      top = p
    end
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    window:addSubview(top)
    ui.update()
    local tree = ui.dump(scene, "tree", 100)
    assert.is_true(#tree < N * 120, "tree: " .. #tree .. " bytes")
    assert.matches('…%(499%d%d%) +└─ View "leaf"\n$', tree)
    local json = ui.dump(scene, "json")
    assert.matches('"name":"leaf"', json)
    assert.is_true(#json < N * 1200)
    assert.is_truthy(ui.dump(scene, "dot"):find("View &quot;leaf&quot;", 1, true))
    assert.is_true(#ui.dump(scene, "full", 100) < N * 2000)
  end)
end)

describe("ui.picture", function()
  local Theme = traits.define { name = "PictureTheme", default = "standard", property = "pictureTheme" }
  local function tour_like()
    local scene, _, root = window_with_root()
    local card = ui.View { name = "card" }
    root.view:addSubview(card)
    scene.traitOverrides[Theme] = "pastel"
    ui.update()
    card.traitOverrides[Theme] = "mono<&>"
    ui.update()
    return scene, Theme
  end

  it("renders SVG with every node's label and the changed values", function()
    local scene = tour_like()
    local path = temp_path(".svg")
    assert.are.equal(path, ui.picture(scene, path))
    local svg = read_file(path)
    os.remove(path)
    assert.is_true(#svg > 2000, "svg: " .. #svg .. " bytes")
    assert.matches("^<%?xml", svg)
    assert.matches("</svg>%s*$", svg)
    for _, label in ipairs { "WindowScene", ">Window<", "ViewController &quot;root&quot;", "View &quot;card&quot;",
                             "override pictureTheme = &quot;mono&lt;&amp;&gt;&quot; (was &quot;pastel&quot;)",
                             "hierarchy mode ios17" } do
      assert.is_truthy(svg:find(label, 1, true), "missing from the SVG: " .. label)
    end
  end)

  it("renders PNG by the extension, and colours a trait's flow on request", function()
    local scene = tour_like()
    local path = temp_path(".PNG")
    ui.picture(scene, path, { trait = Theme })
    local png = read_file(path)
    os.remove(path)
    assert.are.equal("\137PNG\r\n\26\n", png:sub(1, 8))
    assert.is_true(#png > 5000, "png: " .. #png .. " bytes")
    local svgPath = temp_path(".svg")
    ui.picture(scene, svgPath, { trait = "pictureTheme" })
    local svg = read_file(svgPath)
    os.remove(svgPath)
    assert.is_truthy(svg:find("values of pictureTheme", 1, true))
    assert.is_truthy(svg:find("pictureTheme = &quot;pastel&quot;", 1, true))
  end)

  it("draws the path one value took (:why as a picture)", function()
    local scene = tour_like()
    local card = scene.windows[1].rootViewController.view.subviews[1]
    local label = ui.View { name = "label" }
    card:addSubview(label)
    ui.update()
    local dot = ui.dump(scene, "dot")
    assert.is_nil(dot:find("#d62728", 1, true))
    local path = temp_path(".svg")
    ui.picture(scene, path, { trait = Theme, why = label })
    local svg = read_file(path)
    os.remove(path)
    assert.is_truthy(svg:find("where pictureTheme of View &quot;label&quot; comes from", 1, true))
    -- The path is label <- card (whose override sets the value): one thick red arrow.
    local _, thick = svg:gsub('<path fill="none" stroke="#d62728" stroke%-width="3"', "")
    assert.are.equal(1, thick)
    assert.has_error(function() ui.picture(scene, path, { why = label }) end,
      "bad argument #3 to 'ui.picture' (options.why needs options.trait: the trait whose path to draw)")
    assert.has_error(function() ui.picture(scene, path, { trait = Theme, why = 5 }) end,
      "bad argument #3 to 'ui.picture' (options.why must be a trait environment, got number)")
  end)

  it("refuses bad paths and options with clear messages", function()
    local scene = tour_like()
    assert.has_error(function() ui.picture(scene, "/tmp/x.pdf") end,
      "ui.picture: the path must end in .svg or .png, got '/tmp/x.pdf'")
    assert.has_error(function() ui.picture(scene, "/nonexistent-dir/x.svg") end,
      "ui.picture: cannot write '/nonexistent-dir/x.svg': no directory '/nonexistent-dir'")
    local dir = temp_path(".svg")
    assert(os.execute("mkdir " .. dir))
    assert.has_error(function() ui.picture(scene, dir) end, "ui.picture: '" .. dir .. "' is a directory")
    os.remove(dir)
    assert.has_error(function() ui.picture(scene, "a\0b.svg") end, "ui.picture: the path contains a zero byte")
    assert.has_error(function() ui.picture(scene) end)
    assert.has_error(function() ui.picture(5, "x.svg") end)
    assert.has_error(function() ui.picture(scene, "x.svg", { trait = "noSuchTrait" }) end)
    assert.has_error(function() ui.picture(scene, "x.svg", { timeout = -1 }) end)
    assert.has_error(function() ui.picture(scene, "x.svg", { timeout = 0 / 0 }) end)
  end)

  it("writes to the path as given, without a shell", function()
    local scene = tour_like()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir " .. dir))
    local path = dir .. "/a b;$(touch pwned)'\".svg"
    ui.picture(scene, path)
    assert.is_true(#read_file(path) > 1000)
    assert.is_nil(io.open(dir .. "/pwned"))
    assert.is_nil(io.open("pwned"))
    os.remove(path)
    os.remove(dir)
  end)

  it("draws hostile names and values as text", function()
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene, name = 'w"]; n0 -> n0; <b>\0\n\27[31m' }
    window:addSubview(ui.View { name = "}\n}\n digraph x {" })
    ui.update()
    local tree = ui.dump(scene, "tree", 100)
    assert.matches('└─ Window "w"]; n0 %-> n0; <b>\\x0\\n\\x1b%[31m"\n', tree)
    assert.are.equal(10, #lines(tree))   -- scene (1 line and 7 of traits), window, view: no extra lines
    local path = temp_path(".svg")
    ui.picture(scene, path)
    local svg = read_file(path)
    os.remove(path)
    assert.is_truthy(svg:find("&lt;b&gt;\\x0\\n", 1, true))
  end)

  it("refuses a tree too big to draw", function()
    local scene = ui.WindowScene {}
    local window = ui.Window { windowScene = scene }
    for _ = 1, 2001 do window:addSubview(ui.View {}) end
    assert.has_error(function() ui.picture(scene, temp_path(".svg")) end,
      "ui.picture: the tree has more than 2000 environments, too many to draw: draw a subtree")
  end)
end)

describe("ui.trace to a file", function()
  it("writes one JSON object per event with stable fields", function()
    local scene, _, root = window_with_root()
    ui.update()
    local path = os.tmpname()
    ui.trace(path)
    scene.traitOverrides.userInterfaceStyle = "dark"
    root.view:registerForTraitChanges({ traits.UserInterfaceStyle }, function() end)
    ui.update()
    ui.trace(false)
    local text = read_file(path)
    os.remove(path)
    local events = lines(text)
    assert.are.equal('{"seq":1,"kind":"override","environment":"WindowScene","trait":"userInterfaceStyle","value":"dark"}', events[1])
    assert.are.equal('{"seq":2,"kind":"update","pass":1}', events[2])
    assert.is_truthy(text:find('{"seq":3,"kind":"traitsChanged","environment":"WindowScene","traits":["userInterfaceStyle"],'
      .. '"values":{"userInterfaceStyle":"dark"}}', 1, true))
    assert.is_truthy(text:find('"kind":"handler","environment":"View","traits":["userInterfaceStyle"]}', 1, true))
    for i, e in ipairs(events) do assert.matches('^{"seq":' .. i .. ',"kind":"%a+"', e) end
    -- Tracing stopped: the file is closed and complete.
    scene.traitOverrides.userInterfaceStyle = "light"
    ui.update()
    assert.is_nil(io.open(path))
  end)

  it("two runs of the same scenario write the same lines", function()
    local function run()
      local scene, _, root = window_with_root()
      local path = os.tmpname()
      ui.trace(path)
      root.view:addSubview(ui.View { name = "card" })
      ui.update()
      scene.traitOverrides.legibilityWeight = "bold"
      ui.update()
      ui.trace(false)
      scene.windows[1].windowScene = nil
      ui.update()   -- its disappearance, before the next run traces
      local text = read_file(path)
      os.remove(path)
      return text
    end
    local first = run()
    assert.is_true(#lines(first) > 5)
    assert.are.equal(first, run())
  end)

  it("a path that cannot be written is an error and keeps the current trace", function()
    local seen = 0
    ui.trace(function() seen = seen + 1 end)
    assert.has_error(function() ui.trace("/nonexistent-dir/trace.jsonl") end,
      "ui.trace: cannot write '/nonexistent-dir/trace.jsonl': No such file or directory")
    local scene = window_with_root()
    scene.traitOverrides.userInterfaceStyle = "dark"
    ui.update()
    ui.trace(false)
    assert.is_true(seen > 0)
  end)
end)
