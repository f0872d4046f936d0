import CLua
import CLuaShim
import TraitEngine

// Dynamic Type for scripts: `ui.Font`, `ui.FontMetrics`,
// `ui.ContentSizeCategory`, `ui.Label`, and the content size limits of views
// (docs/guide.md, "Dynamic Type"). The facts live in the engine
// (Sources/TraitEngine/DynamicType); this file only converts.

/// A `ui.Font` value (immutable).
final class FontBox {
    let font: Font
    init(_ font: Font) { self.font = font }
}

/// A `ui.FontMetrics` value (immutable).
final class FontMetricsBox {
    let metrics: FontMetrics
    init(_ metrics: FontMetrics) { self.metrics = metrics }
}

// Registry keys of this library's metatables and of the Label class.
private let fontMetaKey = "traitlab.fontMeta"
private let fontMetricsMetaKey = "traitlab.fontMetricsMeta"
private let labelClassKey = "traitlab.labelClass"

extension LuaHost {
    /// Adds `ui.Font`, `ui.FontMetrics` and `ui.ContentSizeCategory` to the table at `ui`.
    func installTypeLibrary(into ui: Int32) {
        installFontMetas()
        // ui.Font
        L.newTable()
        let font = L.top
        setFunction(font, "ui.Font", "preferred") { c in
            let style = try c.host.textStyle(at: 1, in: c)
            let category = try c.host.category(forCollectionAt: 2, in: c)
            c.host.pushFont(try Font.preferred(style, category: category))
            return 1
        }
        setFunction(font, "ui.Font", "system") { c in
            guard let size = c.L.number(1), size.isFinite, size > 0 else { throw c.argError(1, "a point size above 0 expected") }
            let weight = try c.optString(2) ?? "regular"
            guard Self.weights.contains(weight) else {
                throw c.argError(2, "a weight expected (\(Self.weights.joined(separator: ", "))), got \"\(weight)\"")
            }
            c.host.pushFont(.system(size: size, weight: weight))
            return 1
        }
        L.rawSet(ui, "Font")
        // ui.FontMetrics(style)
        L.newTable()
        L.newTable()
        L.pushFunction(LuaFunctions.id("ui.FontMetrics", { c in
            let style = try c.host.textStyle(at: 2, in: c)
            c.L.pushBox(FontMetricsBox(FontMetrics(style)), kind: .font)
            lua_getfield(c.L, tl_registryindex(), fontMetricsMetaKey)
            lua_setmetatable(c.L, -2)
            return 1
        }))
        L.rawSet(-2, "__call")
        L.push("ui.FontMetrics"); L.rawSet(-2, "__metatable")
        lua_setmetatable(L, -2)
        L.rawSet(ui, "FontMetrics")
        installContentSizeCategory(into: ui)
    }

    /// `UIFont.Weight`'s names.
    static let weights = ["ultraLight", "thin", "light", "regular", "medium", "semibold", "bold", "heavy", "black"]

    /// ui.ContentSizeCategory: compare, isAccessibilityCategory, all (a fresh
    /// list at each read), and each category by name; read-only.
    private func installContentSizeCategory(into ui: Int32) {
        L.newTable()
        let t = L.top
        L.newTable()
        let meta = L.top
        L.newTable()
        let methods = L.top
        setFunction(methods, "ui.ContentSizeCategory", "compare") { c in
            let a = try c.host.category(at: 1, in: c), b = try c.host.category(at: 2, in: c)
            c.L.push(ContentSizeCategory.compare(a, b))
            return 1
        }
        setFunction(methods, "ui.ContentSizeCategory", "isAccessibilityCategory") { c in
            c.L.push(try c.host.category(at: 1, in: c).isAccessibilityCategory)
            return 1
        }
        L.pushFunction(LuaFunctions.id("ui.ContentSizeCategory.index", { c in
            let key = try c.string(2)
            // (The methods table is the function's upvalue: looked up in Swift here.)
            if key == "all" {
                c.L.newTable(narr: Int32(ContentSizeCategory.sizes.count))
                for (k, s) in ContentSizeCategory.sizes.enumerated() { c.L.push(s.rawValue); lua_rawseti(c.L, -2, lua_Integer(k + 1)) }
                return 1
            }
            if let s = ContentSizeCategory(rawValue: key) { c.L.push(s.rawValue); return 1 }
            throw LuaError.message("ui.ContentSizeCategory has no '\(key)' (compare, isAccessibilityCategory, all, or a category: \(ContentSizeCategory.allCases.map(\.rawValue).joined(separator: ", ")))")
        }))
        L.rawSet(meta, "__index")
        L.pushFunction(LuaFunctions.id("ui.ContentSizeCategory.newindex", { _ in
            throw LuaError.message("ui.ContentSizeCategory is read-only")
        }))
        L.rawSet(meta, "__newindex")
        L.push("ui.ContentSizeCategory"); L.rawSet(meta, "__metatable")
        // The functions are the table's own fields; everything else goes through __index.
        for name in ["compare", "isAccessibilityCategory"] {
            _ = L.rawGet(methods, name)
            L.rawSet(t, name)
        }
        L.pop()   // methods
        lua_setmetatable(L, t)
        L.rawSet(ui, "ContentSizeCategory")
    }

    private func installFontMetas() {
        let fontMeta = makeMeta(name: "Font", index: ("font.index", { c in
            let font = try c.object(1, FontBox.self, "Font").font
            switch try c.string(2) {
            case "pointSize": c.host.pushPoints(font.pointSize)
            case "weight": c.L.push(font.weight)
            case "leading": c.host.pushPoints(font.leading)
            case "textStyle": if let s = font.textStyle { c.L.push(s.rawValue) } else { c.L.pushNil() }
            case "scalesWithContentSize": c.L.push(font.scaling != nil)
            default:
                throw LuaError.message("Font has no field '\(c.L.string(2) ?? "?")' (pointSize, weight, leading, textStyle, scalesWithContentSize)")
            }
            return 1
        }), methods: [:], newindex: { _ in throw LuaError.message("fonts are immutable") }, tostring: { c in
            c.L.push("Font(\(try c.object(1, FontBox.self, "Font").font))")
            return 1
        }, extra: [("__eq", "font.eq", { c in
            guard let a = c.L.box(1, as: FontBox.self), let b = c.L.box(2, as: FontBox.self) else { c.L.push(false); return 1 }
            c.L.push(a.font == b.font)
            return 1
        })])
        L.registryTable(fontMeta)
        lua_setfield(L, tl_registryindex(), fontMetaKey)
        let metricsMeta = makeMeta(name: "FontMetrics", index: ("fontMetrics.index", { c in
            let m = try c.object(1, FontMetricsBox.self, "FontMetrics").metrics
            guard try c.string(2) == "textStyle" else {
                throw LuaError.message("FontMetrics has no field '\(c.L.string(2) ?? "?")' (textStyle, scaledValue, scaledFont)")
            }
            c.L.push(m.textStyle.rawValue)
            return 1
        }), methods: [
            "scaledValue": ("FontMetrics:scaledValue", { c in
                let m = try c.object(1, FontMetricsBox.self, "FontMetrics").metrics
                guard let v = c.L.number(2), v.isFinite else { throw c.argError(2, "a finite number expected") }
                c.host.pushPoints(m.scaledValue(v, category: try c.host.category(forCollectionAt: 3, in: c)))
                return 1
            }),
            "scaledFont": ("FontMetrics:scaledFont", { c in
                let m = try c.object(1, FontMetricsBox.self, "FontMetrics").metrics
                let font = try c.object(2, FontBox.self, "Font").font
                var maximum: Double?
                if !c.L.isNil(3) {
                    guard let v = c.L.number(3), v.isFinite, v > 0 else { throw c.argError(3, "a maximum point size above 0 expected") }
                    maximum = v
                }
                let category = try c.host.category(forCollectionAt: 4, in: c)
                c.host.pushFont(m.scaledFont(for: font, maximumPointSize: maximum, category: category))
                return 1
            }),
        ], newindex: { _ in throw LuaError.message("font metrics are immutable") }, tostring: { c in
            c.L.push("FontMetrics(\(try c.object(1, FontMetricsBox.self, "FontMetrics").metrics.textStyle.rawValue))")
            return 1
        })
        L.registryTable(metricsMeta)
        lua_setfield(L, tl_registryindex(), fontMetricsMetaKey)
    }

    /// A number of points: whole points as integers (17, not 17.0).
    func pushPoints(_ v: Double) {
        if v == v.rounded(), abs(v) < 1e15 { L.push(Int(v)) } else { L.push(v) }
    }

    func pushFont(_ font: Font) {
        L.pushBox(FontBox(font), kind: .font)
        lua_getfield(L, tl_registryindex(), fontMetaKey)
        lua_setmetatable(L, -2)
    }

    /// The text style named at `i`; one that the world's iOS version lacks
    /// is an error naming the version that introduced it.
    func textStyle(at i: Int32, in c: LuaCall) throws -> TextStyle {
        guard lua_type(L, i) == LUA_TSTRING, let name = L.string(i), let style = TextStyle(rawValue: name) else {
            throw c.argError(i, "a text style expected (\(TextStyle.allCases.map(\.rawValue).joined(separator: ", "))), got \(L.string(i).map { "\"\($0)\"" } ?? L.typeName(i))")
        }
        if world.os.major < style.introduced {
            throw LuaError.message("text style \(name) (UIFont.TextStyle.\(name)) is available from iOS \(style.introduced) (this world runs iOS \(world.os.major))")
        }
        return style
    }

    /// The content size category named at `i`.
    func category(at i: Int32, in c: LuaCall) throws -> ContentSizeCategory {
        guard lua_type(L, i) == LUA_TSTRING, let name = L.string(i), let cat = ContentSizeCategory(rawValue: name) else {
            throw c.argError(i, "a content size category expected (\(ContentSizeCategory.allCases.map(\.rawValue).joined(separator: ", "))), got \(L.string(i).map { "\"\($0)\"" } ?? L.typeName(i))")
        }
        return cat
    }

    /// The category a `compatibleWith:` argument at `i` gives: that
    /// collection's, else (none given, or `unspecified` in it) the category of
    /// `traits.current`, else `large`, the default. Apple's pages do not say
    /// what an unspecified category scales to; TraitLab's choice.
    func category(forCollectionAt i: Int32, in c: LuaCall) throws -> ContentSizeCategory {
        var cat = ContentSizeCategory.unspecified
        if !L.isNil(i) {
            guard let tc = collection(at: i) else { throw c.typeError(i, "TraitCollection") }
            cat = ContentSizeCategory(of: tc)
        }
        if cat == .unspecified { cat = ContentSizeCategory(of: world.currentTraitCollection) }
        return cat == .unspecified ? .large : cat
    }

    // MARK: - ui.Label and the limits of views

    /// Keeps `ui.Label`'s class table (registry ref `ref`) for ``isLabelClass(_:)``.
    func rememberLabelClass(_ ref: Int32) {
        L.registryTable(ref)
        lua_setfield(L, tl_registryindex(), labelClassKey)
    }

    /// Whether the class table at `i` is `ui.Label` or one of its subclasses.
    func isLabelClass(_ i: Int32) -> Bool { isClass(i, derivedFrom: labelClassKey) }

    /// Pushes a Dynamic Type property of `env` (nil where it has none).
    func pushTypeProperty(_ key: String, of env: TraitEnvironment) throws {
        let label = env as? Label
        switch key {
        case "font": if let label { pushFont(label.font) } else { L.pushNil() }
        case "adjustsFontForContentSizeCategory": if let label { L.push(label.adjustsFontForContentSizeCategory) } else { L.pushNil() }
        case "text": if let t = label?.text { L.push(t) } else { L.pushNil() }
        case "textColor":
            // The object that was assigned (it keeps a dynamic colour's function alive).
            guard label != nil else { L.pushNil(); return }
            if pushHostField(1, "__textColor") == LUA_TUSERDATA, L.box(-1, as: ColorBox.self) != nil { return }
            L.pop()
            L.pushNil()
        case "resolvedTextColor":
            if let c = try label?.resolvedTextColor() { pushColor(.fixed(c)) } else { L.pushNil() }
        case "minimumContentSizeCategory": if let c = (env as? View)?.minimumContentSizeCategory { L.push(c.rawValue) } else { L.pushNil() }
        case "maximumContentSizeCategory": if let c = (env as? View)?.maximumContentSizeCategory { L.push(c.rawValue) } else { L.pushNil() }
        default: L.pushNil()
        }
    }

    /// Sets a Dynamic Type property of `env` from the value at `v` (the
    /// environment's object at `object`).
    func setTypeProperty(_ key: String, of env: TraitEnvironment, object: Int32, value v: Int32) throws {
        if key == "minimumContentSizeCategory" || key == "maximumContentSizeCategory" {
            guard let view = env as? View else { throw LuaError.message("\(env.className) has no property '\(key)'") }
            var cat: ContentSizeCategory?
            if !L.isNil(v) {
                guard lua_type(L, v) == LUA_TSTRING, let s = L.string(v), let c = ContentSizeCategory(rawValue: s) else {
                    throw LuaError.message("\(key) must be a content size category or nil, got \(L.string(v).map { "\"\($0)\"" } ?? L.typeName(v))")
                }
                cat = c
            }
            if key == "minimumContentSizeCategory" { view.minimumContentSizeCategory = cat } else { view.maximumContentSizeCategory = cat }
            return
        }
        guard let label = env as? Label else { throw LuaError.message("\(env.className) has no property '\(key)' (a ui.Label has)") }
        switch key {
        case "font":
            guard let f = L.box(v, as: FontBox.self) else { throw LuaError.message("font must be a ui.Font, got \(L.typeName(v))") }
            label.assignedFont = f.font
        case "adjustsFontForContentSizeCategory":
            guard lua_type(L, v) == LUA_TBOOLEAN else {
                throw LuaError.message("adjustsFontForContentSizeCategory must be a boolean, got \(L.typeName(v))")
            }
            label.adjustsFontForContentSizeCategory = lua_toboolean(L, v) != 0
        case "text":
            if L.isNil(v) { label.text = nil; return }
            guard lua_type(L, v) == LUA_TSTRING, let s = try L.keptString(v) else { throw LuaError.message("text must be a string, got \(L.typeName(v))") }
            label.text = s
        case "textColor":
            let color = L.box(v, as: ColorBox.self)
            if color == nil && !L.isNil(v) { throw LuaError.message("textColor must be a ui.Color, got \(L.typeName(v))") }
            label.textColor = color?.value
            label.setNeedsDisplay()
            L.pushValue(v)
            setHostField(object, "__textColor")
        default:
            throw LuaError.message("property '\(key)' of \(env.className) is read-only")
        }
    }
}

/// What a label shows, for dumps, pictures and snapshots: `font body 53 pt`
/// and, when it has one, its text colour as the other resolved colours are
/// written (`textColor label → #FFFFFF (dark)`, a fixed colour as `textColor
/// #1C1C1E`). Empty for other environments.
func labelLines(_ e: TraitEnvironment) -> [String] {
    guard let label = e as? Label else { return [] }
    var lines = ["font \(label.font)"]
    if let value = label.textColor {
        let tc = label.traitCollection
        if let r = try? label.world.performAsCurrent(tc, { try value.resolution(with: tc) }) {
            if case .fixed = value { lines.append("textColor \(r.color.hexString)") } else {
                lines.append("textColor \(value.displayName) → \(r.color.hexString) (\(r.traitsDescription))")
            }
        }
    }
    return lines
}
